// A reader's own parts of a public page. The page (leaderboard, bracket) is the same for every reader and
// cached; this script asks /me.json (the URL in #nav-account's data-me-url) who the reader is and fills in
// their name and logout form, the Admin link for staff, "My event" and, on a leaderboard, their position.
// Without it (or without JavaScript) the page is the one a reader without a session sees.
// The logout form's CSRF token is the csrftoken cookie's value, as Django's docs do for AJAX requests.

const account = document.getElementById("nav-account");
const meUrl = account?.dataset.meUrl;
const REFRESH_MS = 2000; // at most one position refresh this often while scores change

function cookie(name) {
  const found = document.cookie.split("; ").find((pair) => pair.startsWith(`${name}=`));
  return found ? decodeURIComponent(found.slice(name.length + 1)) : "";
}

function item(child) {
  const li = document.createElement("li");
  li.className = "nav-item";
  li.appendChild(child);
  return li;
}

function link(text, href) {
  const a = document.createElement("a");
  a.className = "nav-link";
  a.href = href;
  a.textContent = text;
  return a;
}

function showAccount(me) {
  const name = document.createElement("span");
  name.className = "navbar-text me-2";
  name.textContent = me.user.name;
  const form = document.createElement("form");
  form.method = "post";
  form.action = me.logout_url;
  form.className = "d-inline";
  const token = document.createElement("input");
  token.type = "hidden";
  token.name = "csrfmiddlewaretoken";
  token.value = cookie(me.csrf_cookie);
  form.addEventListener("submit", () => { token.value = cookie(me.csrf_cookie); });
  const button = document.createElement("button");
  button.type = "submit";
  button.className = "btn btn-link nav-link";
  button.textContent = "Log out";
  form.append(token, button);
  account.replaceChildren(item(name), item(form));
  if (me.admin_url) document.getElementById("nav-main")?.appendChild(item(link("Admin", me.admin_url)));
  const eventNav = document.getElementById("event-nav");
  if (me.my_event_url && eventNav) eventNav.appendChild(item(link("My event", me.my_event_url)));
}

function showPosition(position) {
  const line = document.getElementById("my-position");
  if (!line) return;
  if (!position) {
    line.hidden = true;
    return;
  }
  const rank = document.createElement("strong");
  rank.textContent = String(position.place || position.rank);
  const points = position.points_won;
  line.replaceChildren("You are ranked ", rank, ` with ${points} point${points === 1 ? "" : "s"}`);
  if (position.pages > 1) {
    const a = document.createElement("a");
    a.href = position.url;
    a.textContent = `page ${position.page}`;
    line.append(" — ", a);
  }
  line.append(".");
  line.hidden = false;
}

async function fetchMe() {
  const response = await fetch(meUrl, { credentials: "same-origin", headers: { Accept: "application/json" } });
  if (!response.ok) throw new Error(`HTTP ${response.status}`);
  return response.json();
}

async function start() {
  const me = await fetchMe();
  if (!me.user) return;
  showAccount(me);
  if (!("position" in me)) return;
  showPosition(me.position);
  // The live leaderboard announces new scores: the position follows, at most every REFRESH_MS.
  let waiting = false;
  document.addEventListener("scores-changed", () => {
    if (waiting) return;
    waiting = true;
    setTimeout(async () => {
      waiting = false;
      try {
        const again = await fetchMe();
        if (again.user) showPosition(again.position);
      } catch (error) {
        console.warn("my position:", error.message);
      }
    }, REFRESH_MS);
  });
}

if (account && meUrl) start().catch((error) => console.warn("reader:", error.message));
