// Every page registers the site's service worker (templates/notifications/sw.js): it makes the site
// installable, shows an offline page without a network, and shows pushed notifications.
if ("serviceWorker" in navigator) {
  navigator.serviceWorker.register("/sw.js").catch(() => { /* private mode or an old browser: the site works without */ });
}
