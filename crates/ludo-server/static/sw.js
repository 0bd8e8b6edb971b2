// Offline play: every file of the page is kept in the browser's cache (the expert CPU's network
// once it was first fetched). Online, the network is asked first (so a new version is seen at
// once) and the cache refreshed; offline, the cache answers, and local games carry on. Rooms and
// the API's other calls are never cached.

const CACHE = 'ludo-v22';
const FILES = [
  '/', '/app.js', '/app.css', '/dom.js', '/game/gestures.js', '/game/lesson.js', '/game/nomove.js',
  '/game/lessontext.js', '/game/hint.js', '/game/hinttext.js', '/room/served.js', '/engine/engine.js',
  '/game/board.js',
  '/game/local.js', '/room/online.js', '/game/animate.js', '/rulebook/options.js', '/game/keys.js',
  '/game/turnlog.js', '/i18n/i18n.js', '/rulebook/rulespage.js', '/rulebook/rulespage.css',
  '/rulebook/houserules.js', '/rulebook/rulespicture.js', '/rulebook/rulestext.js',
  '/i18n/texts-en.js', '/i18n/texts-fr.js', '/i18n/texts-pt.js', '/i18n/texts-ru.js',
  '/i18n/texts-vi.js', '/game/places.js', '/home/ranked.js', '/records/records.js',
  '/records/replay.js', '/records/replay.css', '/records/analysis.js', '/records/analysistext.js', '/records/endsummary.js',
  '/engine.wasm', '/game/table.js', '/game/dice.js',
  '/game/clock.js', '/game/sound.js', '/i18n/texts-errors.js', '/room/roomsettings.js',
  '/home/home.js', '/home/saves.js', '/game/guide.js', '/home/tables.js', '/room/phrases.js',
  '/room/rematch.js', '/game/celebrate.js', '/room/leave.js', '/room/rejoin.js', '/room/invite.js',
  '/home/sheets.js', '/room/roomname.js', '/room/freeseat.js', '/room/identity.js',
  '/engine/cpu.js', '/engine/cpu-worker.js', '/engine/analysis.js', '/api/rules', '/manifest.webmanifest', '/icon.svg'];

/**
 * Files kept once fetched, not at install: each of the `expert` CPU's networks (300 KB,
 * `/expert/<name>.bin`) is fetched only when an expert first plays its kind of game, and from
 * then on plays offline too; the engine with a game's analysis, when a game is first analysed.
 */
function isOnDemand(path) {
  return path === '/analysis.wasm' || /^\/expert\/[\w-]+\.bin$/.test(path);
}

/**
 * Addresses the page draws itself (a room, the replay viewer, a rules page, the records' pages):
 * all answered by `/`, so that offline each says what it can (a records page, that the server
 * cannot be reached) rather than the browser's own error page.
 */
function isPage(path) {
  return path.startsWith('/r/') || path === '/replay' || /^\/rules\/\w+$/.test(path)
    || /^\/(leaderboard(\/\w+)?|players\/\w+|games\/\w+)$/.test(path);
}

self.addEventListener('install', (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(FILES)));
  self.skipWaiting();
});

// The caches of earlier versions go: offline, `caches.match` would answer from the oldest first.
self.addEventListener('activate', (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

self.addEventListener('fetch', (event) => {
  const url = new URL(event.request.url);
  const cacheable = event.request.method === 'GET' && url.origin === location.origin
    && (FILES.includes(url.pathname) || isOnDemand(url.pathname) || isPage(url.pathname));
  if (!cacheable) return;
  const key = isPage(url.pathname) ? '/' : url.pathname;
  event.respondWith(
    fetch(event.request)
      .then((response) => {
        if (response.ok) {
          const copy = response.clone();
          caches.open(CACHE).then((cache) => cache.put(key, copy));
        }
        return response;
      })
      .catch(() => caches.match(key)),
  );
});
