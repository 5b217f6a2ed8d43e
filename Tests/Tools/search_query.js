#!/usr/bin/env node
// One query through the search page's own engine (templates/assets/search.js) over a built index, as the page
// runs it: prints its results' cards, in order, as JSON, each with the entry it leads to (-1 for none).
//
// Usage: search_query.js INDEX_FOLDER QUERY_JSON
//   QUERY_JSON: {words, kind, facets, min, max, sort}, as the page's `query()` makes it (missing keys are empty).
'use strict';
const fs = require('fs');
const path = require('path');
const engine = require(path.join(__dirname, '..', '..', 'templates', 'assets', 'search.js'));

const [folder, queryText] = process.argv.slice(2);
const query = Object.assign({ words: '', kind: '', facets: {}, min: null, max: null, sort: '' }, JSON.parse(queryText));
const search = new engine.Search((file) => Promise.resolve(JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8'))));

search.run(query)
  .then((documents) => search.cards(documents))
  .then((cards) => {
    const terms = engine.queryTerms(query.words);
    const shown = cards.map((card) => ({ title: card.title, path: card.path, kind: card.kind.name, entry: engine.entryOf(card, terms, query.facets) }));
    process.stdout.write(JSON.stringify(shown) + '\n');
  })
  .catch((error) => { process.stderr.write(String(error && error.stack || error) + '\n'); process.exit(1); });
