// Practice games kept in the browser (IndexedDB, database
// `sequence-practice`, store `tables`, keyed by table id): the table (game,
// seats and bot levels, rule options), the record of the game in progress
// and the move log, saved after every move, so that a reload (or a closed
// tab) takes the game up where it stood.
const DB = "sequence-practice";
const STORE = "tables";
let opened = null;

function db() {
  if (!opened) {
    opened = new Promise((resolve, reject) => {
      const r = indexedDB.open(DB, 1);
      r.onupgradeneeded = () => r.result.createObjectStore(STORE, { keyPath: "id" });
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
  }
  return opened;
}

function request(mode, f) {
  return db().then((d) => new Promise((resolve, reject) => {
    const tx = d.transaction(STORE, mode);
    const r = f(tx.objectStore(STORE));
    tx.oncomplete = () => resolve(r && r.result);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  }));
}

/** The saved table `id`, or undefined. */
export const loadTable = (id) => request("readonly", (s) => s.get(id));

/** Saves (replaces) a table. */
export const saveTable = (table) => request("readwrite", (s) => s.put(table));

/** Saves `table` only if the saved one is still at move `accepted` of
 * game `gameNo` (or there is none): another tab on the same table may
 * have saved a move meanwhile. Resolves whether it was saved. */
export function saveTableIf(table, accepted, gameNo) {
  return db().then((d) => new Promise((resolve, reject) => {
    const tx = d.transaction(STORE, "readwrite");
    const store = tx.objectStore(STORE);
    let saved = false;
    const r = store.get(table.id);
    r.onsuccess = () => {
      const now = r.result;
      if (now && (now.accepted !== accepted || now.game_no !== gameNo)) return;
      store.put(table);
      saved = true;
    };
    tx.oncomplete = () => resolve(saved);
    tx.onerror = () => reject(tx.error);
    tx.onabort = () => reject(tx.error);
  }));
}

/** Changes the saved table `id` in place with `change(table)` (one
 * transaction: what another tab saved meanwhile is kept); nothing when
 * there is none. */
export function updateTable(id, change) {
  return request("readwrite", (s) => {
    const r = s.get(id);
    r.onsuccess = () => {
      if (!r.result) return;
      change(r.result);
      s.put(r.result);
    };
    return null;
  });
}

/** Every saved table. */
export const allTables = () => request("readonly", (s) => s.getAll());
