// The map page: the kind's places on a Leaflet map drawn from its GeoJSON, when the site configures tiles
// (the list below the map works without either), and their distance from the visitor only when asked.
(function () {
  "use strict";
  var places = Array.prototype.slice.call(document.querySelectorAll(".places li[data-slug]"));

  function linkOf(slug) {
    var item = document.querySelector('.places li[data-slug="' + slug + '"] a');
    return item ? item.getAttribute("href") : null;
  }

  function text(value) {
    var span = document.createElement("span");
    span.textContent = value;
    return span.innerHTML;
  }

  function drawMap(root) {
    if (!root || !window.L) return;
    fetch(root.dataset.geojson).then(function (response) {
      if (!response.ok) throw new Error("GeoJSON: " + response.status);
      return response.json();
    }).then(function (geojson) {
      root.hidden = false;
      var map = L.map(root, { scrollWheelZoom: false });
      // Leaflet shows the attribution as HTML; the site's is text.
      L.tileLayer(root.dataset.tiles, { attribution: text(root.dataset.attribution), maxZoom: 18 }).addTo(map);
      var layer = L.geoJSON(geojson, {
        pointToLayer: function (feature, latlng) {
          var title = feature.properties.title;
          return L.marker(latlng, { title: title, alt: title });
        },
        onEachFeature: function (feature, marker) {
          var link = document.createElement("a");
          link.href = linkOf(feature.properties.slug) || feature.properties.url;
          link.textContent = feature.properties.title;
          marker.bindPopup(link);
        }
      }).addTo(map);
      map.fitBounds(layer.getBounds(), { padding: [24, 24], maxZoom: 13 });
    });
  }

  // Great-circle distance in kilometres.
  function distance(lat1, lon1, lat2, lon2) {
    var rad = Math.PI / 180, dLat = (lat2 - lat1) * rad, dLon = (lon2 - lon1) * rad;
    var a = Math.sin(dLat / 2) * Math.sin(dLat / 2) + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) * Math.sin(dLon / 2);
    return 6371 * 2 * Math.atan2(Math.sqrt(a), Math.sqrt(1 - a));
  }

  function showDistances(position) {
    var here = position.coords, list = document.querySelector(".places");
    places.forEach(function (item) {
      item.km = distance(here.latitude, here.longitude, Number(item.dataset.lat), Number(item.dataset.lon));
      item.querySelector(".distance").textContent = item.km.toFixed(1) + " km from you";
    });
    places.slice().sort(function (a, b) { return a.km - b.km; }).forEach(function (item) { list.appendChild(item); });
    document.getElementById("distance-status").textContent = "Nearest first.";
  }

  // Geolocation only when the visitor asks for it, never on load.
  var button = document.getElementById("distance");
  if (button && navigator.geolocation) {
    button.hidden = false;
    button.addEventListener("click", function () {
      var status = document.getElementById("distance-status");
      status.textContent = "Finding where you are…";
      navigator.geolocation.getCurrentPosition(showDistances, function () {
        status.textContent = "Your browser did not give your position.";
      });
    });
  }
  drawMap(document.getElementById("map"));
})();
