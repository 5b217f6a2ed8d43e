// Noticeboard search: filters the build's search index in the browser as the visitor types.
// The index (api/search.json) lists, per listing: [kind, title, path, folded text, facet value indexes, range value].
(function () {
  'use strict';

  var form = document.getElementById('search');
  var words = document.getElementById('search-words');
  var kindSelect = document.getElementById('search-kind');
  var facetBox = document.getElementById('search-facets');
  var rangeBox = document.getElementById('search-range');
  var rangeLabel = document.getElementById('search-range-label');
  var minInput = document.getElementById('search-min');
  var maxInput = document.getElementById('search-max');
  var status = document.getElementById('search-status');
  var results = document.getElementById('search-results');
  var base = form.getAttribute('data-base');
  var index = null;
  var limit = 50;

  // Lowercase without accents, as the index stores its text.
  function fold(text) {
    return text.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase();
  }

  function option(value, label) {
    var element = document.createElement('option');
    element.value = value;
    element.textContent = label;
    return element;
  }

  function showFacets(params) {
    facetBox.textContent = '';
    var kind = index.kinds[kindSelect.value];
    rangeBox.hidden = !(kind && kind.range);
    if (!kind) return;
    if (kind.range) rangeLabel.textContent = kind.range.label;
    kind.facets.forEach(function (facet, facetIndex) {
      var id = 'search-facet-' + facetIndex;
      var paragraph = document.createElement('p');
      var label = document.createElement('label');
      label.htmlFor = id;
      label.textContent = facet.label;
      var select = document.createElement('select');
      select.id = id;
      select.name = facet.name;
      select.setAttribute('data-facet', String(facetIndex));
      select.appendChild(option('', 'Any'));
      facet.values.forEach(function (value, valueIndex) { select.appendChild(option(String(valueIndex), value)); });
      if (params && params.get(facet.name) !== null) select.value = params.get(facet.name);
      paragraph.appendChild(label);
      paragraph.appendChild(document.createTextNode(' '));
      paragraph.appendChild(select);
      facetBox.appendChild(paragraph);
    });
  }

  function selectedFacets() {
    var chosen = [];
    facetBox.querySelectorAll('select').forEach(function (select) {
      if (select.value !== '') chosen.push([Number(select.getAttribute('data-facet')), Number(select.value)]);
    });
    return chosen;
  }

  function run() {
    var terms = fold(words.value).split(/\s+/).filter(Boolean);
    var kind = kindSelect.value === '' ? null : Number(kindSelect.value);
    var facets = kind === null ? [] : selectedFacets();
    var min = minInput.value === '' ? null : Number(minInput.value);
    var max = maxInput.value === '' ? null : Number(maxInput.value);
    var useRange = kind !== null && index.kinds[kind].range && !rangeBox.hidden;
    var found = index.items.filter(function (item) {
      if (kind !== null && item[0] !== kind) return false;
      var text = fold(item[1]) + ' ' + item[3];
      for (var i = 0; i < terms.length; i++) if (text.indexOf(terms[i]) < 0) return false;
      for (var j = 0; j < facets.length; j++) if (item[4][facets[j][0]].indexOf(facets[j][1]) < 0) return false;
      if (useRange && (min !== null || max !== null)) {
        if (item[5] === null) return false;
        if (min !== null && item[5] < min) return false;
        if (max !== null && item[5] > max) return false;
      }
      return true;
    });
    results.textContent = '';
    found.slice(0, limit).forEach(function (item) {
      var entry = document.createElement('li');
      var link = document.createElement('a');
      link.href = base + item[2];
      link.textContent = item[1];
      var note = document.createElement('span');
      note.className = 'card-kind';
      note.textContent = ' ' + index.kinds[item[0]].title;
      entry.appendChild(link);
      entry.appendChild(note);
      results.appendChild(entry);
    });
    status.textContent = found.length === 0 ? 'Nothing matches.'
      : found.length > limit ? found.length + ' matches; the first ' + limit + ' are shown.'
      : found.length === 1 ? '1 match.' : found.length + ' matches.';
    remember();
  }

  // Keeps the query in the address, so a search can be bookmarked or shared.
  function remember() {
    var params = new URLSearchParams();
    if (words.value) params.set('q', words.value);
    if (kindSelect.value !== '') params.set('kind', index.kinds[kindSelect.value].name);
    facetBox.querySelectorAll('select').forEach(function (select) { if (select.value !== '') params.set(select.name, select.value); });
    if (!rangeBox.hidden && minInput.value) params.set('min', minInput.value);
    if (!rangeBox.hidden && maxInput.value) params.set('max', maxInput.value);
    var query = params.toString();
    history.replaceState(null, '', query ? '?' + query : location.pathname);
  }

  function start(loaded) {
    index = loaded;
    index.kinds.forEach(function (kind, kindIndex) { kindSelect.appendChild(option(String(kindIndex), kind.title)); });
    var params = new URLSearchParams(location.search);
    words.value = params.get('q') || '';
    index.kinds.forEach(function (kind, kindIndex) { if (kind.name === params.get('kind')) kindSelect.value = String(kindIndex); });
    minInput.value = params.get('min') || '';
    maxInput.value = params.get('max') || '';
    showFacets(params);
    form.addEventListener('input', function (event) {
      if (event.target === kindSelect) showFacets(null);
      run();
    });
    form.addEventListener('submit', function (event) { event.preventDefault(); run(); });
    run();
  }

  fetch(form.getAttribute('data-index'))
    .then(function (response) {
      if (!response.ok) throw new Error(response.status + ' ' + response.statusText);
      return response.json();
    })
    .then(start)
    .catch(function (error) { status.textContent = 'The search index could not be loaded (' + error.message + ').'; });
})();
