// The pick of the day on the home page, chosen by the visitor's own date: the build wrote one document a day
// (api/<kind>/daily/YYYY-MM-DD.json); the page as built shows the build date's pick, which stays when the
// day's document cannot be had. At the visitor's midnight the next day's pick replaces it.
(function () {
  "use strict";
  var sections = Array.prototype.slice.call(document.querySelectorAll("[data-daily]"));
  if (!sections.length || !window.fetch) return;

  function pad(number) { return (number < 10 ? "0" : "") + number; }

  function localDate(now) {
    return now.getFullYear() + "-" + pad(now.getMonth() + 1) + "-" + pad(now.getDate());
  }

  // The documents give absolute URLs; the page links within the site it was served from.
  function sitePath(section, url) {
    var base = section.dataset.baseUrl;
    return url.indexOf(base) === 0 ? section.dataset.basePath + url.slice(base.length) : url;
  }

  function show(section, pick) {
    section.querySelectorAll("[data-entry]").forEach(function (element) {
      var value = pick.entry[element.dataset.entry];
      if (value !== undefined && value !== null) element.textContent = value;
    });
    var listing = pick.listing.url ? sitePath(section, pick.listing.url) : null;
    section.querySelectorAll("[data-link]").forEach(function (link) {
      if (!listing) return;
      link.href = link.dataset.link === "entry" && pick.position ? listing + "#entry-" + (pick.position - 1) : listing;
      if (link.dataset.link === "listing") link.textContent = pick.listing.title;
    });
    var time = section.querySelector("time");
    time.dateTime = pick.date;
    // Noon UTC of that day, shown in UTC: the same calendar day whatever the visitor's time zone.
    time.textContent = new Date(pick.date + "T12:00:00Z").toLocaleDateString(document.documentElement.lang,
      { day: "numeric", month: "long", year: "numeric", timeZone: "UTC" });
  }

  function refresh() {
    var today = localDate(new Date());
    sections.forEach(function (section) {
      if (section.querySelector("time").getAttribute("datetime") === today) return;
      fetch(section.dataset.daily + today + ".json").then(function (response) {
        return response.ok ? response.json() : null;
      }).then(function (pick) {
        if (pick) show(section, pick);
      }).catch(function () {});
    });
    var now = new Date(), midnight = new Date(now.getFullYear(), now.getMonth(), now.getDate() + 1);
    setTimeout(refresh, midnight - now + 500);
  }

  refresh();
})();
