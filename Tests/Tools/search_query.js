#!/usr/bin/env node
// One query through the search page's own engine (templates/assets/search.js) over a built index, as the page
// runs it: prints {results, suggestions, loads} as JSON: its results' cards in order, each with the entry it leads
// to (-1 for none) and the field of that entry it shows beside the entry's text (`elsewhere`); when it finds
// nothing, what the page suggests trying instead ({leaves, words, facets, min, max, count}); and the index files
// loaded for the results and then for the suggestions.
//
// Usage: search_query.js INDEX_FOLDER QUERY_JSON
//   QUERY_JSON: {words, kind, facets, min, max, sort}, as the page's `query()` makes it (missing keys are empty).
'use strict';
const fs = require('fs');
const path = require('path');
const engine = require(path.join(__dirname, '..', '..', 'templates', 'assets', 'search.js'));

const [folder, queryText] = process.argv.slice(2);
const query = Object.assign({ words: '', kind: '', facets: {}, min: null, max: null, sort: '' }, JSON.parse(queryText));
let loaded = 0;
const search = new engine.Search((file) => {
  loaded++;
  return Promise.resolve(JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8')));
});

async function main() {
  const cards = await search.cards(await search.run(query));
  const terms = engine.queryTerms(query.words);
  const results = cards.map((card) => {
    const entry = engine.entryOf(card, terms, query.facets);
    const elsewhere = entry >= 0 ? engine.entryElsewhere(card.entries[entry], terms) : '';
    return { title: card.title, path: card.path, kind: card.kind.name, entry, elsewhere };
  });
  const forResults = loaded;
  const tries = results.length ? [] : await search.suggestions(query);
  const suggestions = tries.map((attempt) => Object.assign({ leaves: attempt.leaves, count: attempt.count }, attempt.query));
  process.stdout.write(JSON.stringify({ results, suggestions, loads: { results: forResults, suggestions: loaded - forResults } }) + '\n');
}

main().catch((error) => { process.stderr.write(String((error && error.stack) || error) + '\n'); process.exit(1); });
