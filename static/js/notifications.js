// The "Notifications" card of "My event" (templates/notifications/_control.html): after a tap (never on page
// load) ask the browser's permission, subscribe this browser to Web Push with the site's VAPID key, and send
// the subscription to the site; or forget it. Browsers without push keep the card's choices (mail) only.
const card = document.getElementById("notifications");
const state = document.getElementById("push-state");
const onButton = document.getElementById("push-on");
const offButton = document.getElementById("push-off");

function csrfToken() {
  const field = document.querySelector("input[name=csrfmiddlewaretoken]");
  return field ? field.value : "";
}

export async function postJSON(url, data) {
  const response = await fetch(url, {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
    body: JSON.stringify(data),
  });
  const answer = await response.json().catch(() => ({}));
  if (!response.ok) throw new Error(answer.error || `the site answered ${response.status}`);
  return answer;
}

function keyBytes(base64url) {
  const text = atob(base64url.replace(/-/g, "+").replace(/_/g, "/"));
  return Uint8Array.from(text, (c) => c.charCodeAt(0));
}

function show(on, message) {
  state.textContent = message;
  onButton.hidden = on;
  offButton.hidden = !on;
}

async function registration() {
  await navigator.serviceWorker.register("/sw.js");
  return navigator.serviceWorker.ready;
}

async function turnOn() {
  onButton.disabled = true;
  try {
    const permission = await Notification.requestPermission();
    if (permission !== "granted") {
      show(false, "Notifications are blocked for this site in the browser's settings; you get e-mail instead.");
      return;
    }
    const reg = await registration();
    const subscription = await reg.pushManager.subscribe({
      userVisibleOnly: true, applicationServerKey: keyBytes(card.dataset.vapidKey),
    });
    await postJSON(card.dataset.subscribeUrl, subscription.toJSON());
    show(true, "This phone is told when your table is ready.");
  } catch (error) {
    show(false, `This browser could not turn notifications on (${error.message}); you get e-mail instead.`);
  } finally {
    onButton.disabled = false;
  }
}

async function turnOff() {
  try {
    const reg = await registration();
    const subscription = await reg.pushManager.getSubscription();
    if (subscription) {
      await postJSON(card.dataset.unsubscribeUrl, { endpoint: subscription.endpoint });
      await subscription.unsubscribe();
    }
    show(false, "Notifications are off on this phone.");
  } catch (error) {
    state.textContent = `Could not turn notifications off (${error.message}): try again.`;
  }
}

async function start() {
  if (!("serviceWorker" in navigator) || !("PushManager" in window) || !card.dataset.vapidKey) {
    state.textContent = "This browser cannot get notifications from the site; you get e-mail instead.";
    return;
  }
  const reg = await navigator.serviceWorker.getRegistration("/");
  const subscription = reg && Notification.permission === "granted" ? await reg.pushManager.getSubscription() : null;
  if (subscription) show(true, "This phone is told when your table is ready.");
  else show(false, state.textContent);
}

if (card) {
  onButton.addEventListener("click", turnOn);
  offButton.addEventListener("click", turnOff);
  start().catch(() => show(false, state.textContent));
}
