// Watch list: re-fetches the server-rendered list of live tables (with how many watch each) every few
// seconds while the page is visible, and at once when the page comes back on screen. Works without it.

const container = document.getElementById("watch-list");
const statusLine = document.getElementById("live-status");
const pollMs = Number(container?.dataset.pollSeconds || 10) * 1000;
let lastHtml = null;
let fetching = false;

async function refresh() {
  if (fetching || document.hidden) return;
  fetching = true;
  try {
    const response = await fetch(container.dataset.fragmentUrl, {
      cache: "no-cache", headers: { "X-Requested-With": "fetch" } });
    if (!response.ok) throw new Error(`HTTP ${response.status}`);
    const html = await response.text();
    if (html !== lastHtml) {
      container.innerHTML = html; // the site's own escaped markup
      lastHtml = html;
    }
    statusLine.textContent = `Updated at ${new Date().toLocaleTimeString()}.`;
  } catch (error) {
    statusLine.textContent = `Could not update the list (${error.message}); trying again.`;
  } finally {
    fetching = false;
  }
}

if (container) {
  setInterval(refresh, pollMs);
  document.addEventListener("visibilitychange", () => { if (!document.hidden) refresh(); });
}
