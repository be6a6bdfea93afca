// The check-in desk (admin): the player list follows the search box and the status filter as the
// organizer types, without a page load; the bulk form keeps the same search. A plain script (not inline:
// the Content-Security-Policy allows only the site's own files).
(function () {
  var form = document.getElementById("desk-search");
  var box = form && form.querySelector("input[name=q]");
  if (!box || !window.fetch) return;
  var timer = null, asked = 0;
  function refresh() {
    var params = new URLSearchParams(new FormData(form));
    params.set("partial", "1");
    var mine = ++asked;
    fetch(window.location.pathname + "?" + params.toString(), {credentials: "same-origin"})
      .then(function (r) { return r.ok ? r.text() : null; })
      .then(function (html) {
        if (html === null || mine !== asked) return;
        var old = document.getElementById("desk-results");
        var holder = document.createElement("div");
        holder.innerHTML = html;
        old.replaceWith(holder.firstElementChild);
        params.delete("partial");
        var bulk = document.getElementById("bulk-form");
        if (bulk) { bulk.elements.q.value = params.get("q") || ""; bulk.elements.show.value = params.get("show") || "all"; }
        history.replaceState(null, "", window.location.pathname + "?" + params.toString());
      });
  }
  box.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(refresh, 200); });
  form.querySelector("select[name=show]").addEventListener("change", refresh);
})();
