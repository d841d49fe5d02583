-- Learning progress of an account (issue "learn to play"): the puzzles
-- it solved and how far it went in each tutorial, merged with what a
-- browser kept before signing in (never lost: a union, the furthest
-- step). Rules: src/learn.rs. Never edit a migration once released.

-- One row per solved puzzle: `game` (classic, stacks), `puzzle_id` as in
-- web/puzzles/<game>.json, when the account first counted it solved.
CREATE TABLE puzzles_solved (
    user_id BIGINT NOT NULL,
    game TEXT NOT NULL,
    puzzle_id TEXT NOT NULL,
    solved_ms BIGINT NOT NULL,
    PRIMARY KEY (user_id, game, puzzle_id)
);

-- One row per tutorial begun: the furthest step reached (1 = the first
-- of web/tutorial/<game>.json's steps) and whether it was finished
-- (1) at least once.
CREATE TABLE tutorial_progress (
    user_id BIGINT NOT NULL,
    game TEXT NOT NULL,
    step BIGINT NOT NULL,
    done BIGINT NOT NULL,
    updated_ms BIGINT NOT NULL,
    PRIMARY KEY (user_id, game)
);
