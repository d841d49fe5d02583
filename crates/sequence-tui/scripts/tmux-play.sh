#!/usr/bin/env bash
# Plays `sequence play` in a real terminal (tmux) as a simple-minded person
# would, from the start screen to the end of the game, then saves, quits and
# verifies the saved record. Needs tmux and a built `sequence` binary.
#
#   crates/sequence-tui/scripts/tmux-play.sh [path/to/sequence] [classic|stacks]
#
# Classic: Enter plays the selected card on the space the cursor jumped to,
# x exchanges a dead card, Tab tries the next card. Stacks: play the first
# card that fits a pile, else discard; answer Block windows.
set -euo pipefail
BIN=${1:-target/debug/sequence}
GAME=${2:-classic}
S=seq-smoke-$$
OUT=$(mktemp -d)
trap 'tmux kill-session -t $S 2>/dev/null || true; rm -rf "$OUT"' EXIT
tmux new-session -d -s $S -x 100 -y 30 \
  "$BIN play --game $GAME --seed 42 --bots 2 --pause 50 --save $OUT/game.json; echo EXITED; sleep 60"
sleep 1
screen() { tmux capture-pane -t $S -p; }
screen | grep -q "New game" || { echo "no start screen"; screen; exit 1; }
tmux send-keys -t $S Enter
over=0
for _ in $(seq 1 3000); do
  sleep 0.15
  scr=$(screen)
  title=$(echo "$scr" | head -1)
  if echo "$scr" | grep -q "Game over"; then over=1; break; fi
  if echo "$scr" | grep -q "press Enter when ready"; then tmux send-keys -t $S Enter; continue; fi
  if [ "$GAME" = stacks ]; then
    if echo "$title" | grep -q "may Block"; then
      if echo "$scr" | grep -q "BLOCK it"; then tmux send-keys -t $S b; else tmux send-keys -t $S n; fi
      continue
    fi
    echo "$title" | grep -q "(you) to play" || continue
    if echo "$scr" | grep -q "Enter ends the turn"; then tmux send-keys -t $S e; continue; fi
    played=0
    for k in 1 2 3 4 5 6 7 8 9 d; do
      tmux send-keys -t $S $k; sleep 0.03
      opt=$(screen | grep -o "│›[^│]*" | tail -1 || true)
      if echo "$opt" | grep -q -e " on blue-" -e " on red-"; then tmux send-keys -t $S Enter; played=1; break; fi
    done
    [ $played = 1 ] || { tmux send-keys -t $S 1; sleep 0.03; tmux send-keys -t $S Enter; }
  else
    echo "$title" | grep -q "(you) to play" || continue
    msg=$(echo "$scr" | tail -2 | head -1)
    if echo "$msg" | grep -q "press x"; then tmux send-keys -t $S x; continue; fi
    if echo "$msg" | grep -q -e "no free space" -e "Not allowed" -e "one exchange per turn" -e "is not on" -e "not dead"; then
      tmux send-keys -t $S Tab; continue
    fi
    tmux send-keys -t $S Enter
  fi
done
[ $over = 1 ] || { echo "the game did not end"; screen; exit 1; }
screen | head -1
tmux send-keys -t $S q; sleep 0.3
screen | grep -q "Quit the game?" || { echo "no quit question"; screen; exit 1; }
tmux send-keys -t $S y; sleep 0.5
screen | grep -q "Game saved to" || { echo "not saved"; screen; exit 1; }
"$BIN" verify "$OUT/game.json" > "$OUT/verify.json"
echo "record verifies: $(tr -d '\n ' < "$OUT/verify.json" | cut -c1-80)"
echo "1 passed, 0 failed"
