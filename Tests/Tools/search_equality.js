#!/usr/bin/env node
// The split search index against brute force: generated queries run through the search page's own engine
// (templates/assets/search.js) over a built index, and through a plain scan of the listings, must find the
// same documents.
//
// Usage: search_equality.js INDEX_FOLDER LISTINGS_JSON QUERIES SEED
//   INDEX_FOLDER: a build's api/search/; LISTINGS_JSON: {documents: [{kind, title, text, facets, range, place}]}
//   in document order (what SearchDocument holds, and the listing's place in its kind's list). Prints one
//   summary line; exits 1 on any difference.
'use strict';
const fs = require('fs');
const path = require('path');
const engine = require(path.join(__dirname, '..', '..', 'templates', 'assets', 'search.js'));

const [folder, listingsFile, queryCount, seedText] = process.argv.slice(2);
const documents = JSON.parse(fs.readFileSync(listingsFile, 'utf8')).documents;
const search = new engine.Search((file) => Promise.resolve(JSON.parse(fs.readFileSync(path.join(folder, file), 'utf8'))));

// Each listing's words, once: its title's and text's, and its kind's title and singular.
const kinds = JSON.parse(fs.readFileSync(path.join(folder, 'meta.json'), 'utf8')).kinds;
const kindWords = Object.fromEntries(kinds.map((kind) => [kind.name, engine.words(kind.title + ' ' + kind.singular)]));
const wordsOf = documents.map((doc) => engine.words(doc.title + ' ' + doc.text).concat(kindWords[doc.kind]));
const CJK = /[\u1100-\u11FF\u2E80-\u2FDF\u3040-\u318F\u31A0-\u31FF\u3400-\u4DBF\u4E00-\u9FFF\uA960-\uA97F\uAC00-\uD7FF\uF900-\uFAFF\uFF66-\uFF9F\u{20000}-\u{3134F}]/u;

// The rules as README states them, applied to each listing in turn; `skipped`: a facet whose choice is left out.
function bruteForce(query, skipped) {
  const terms = engine.words(query.words);
  const found = [];
  documents.forEach((doc, number) => {
    if (query.kind && doc.kind !== query.kind) return;
    const words = wordsOf[number];
    const matches = terms.every((term) => {
      const length = Array.from(term).length;
      if (length === 1) return words.includes(term);
      if (CJK.test(term[0])) return words.some((word) => word.includes(term));
      return words.some((word) => word.startsWith(term));
    });
    if (!matches) return;
    if (query.kind) {
      for (const [name, value] of Object.entries(query.facets)) {
        if (name !== skipped && !(doc.facets[name] || []).includes(value)) return;
      }
      if (query.min !== null || query.max !== null) {
        if (doc.range === null || doc.range === undefined) return;
        if (query.min !== null && doc.range < query.min) return;
        if (query.max !== null && doc.range > query.max) return;
      }
    }
    found.push(number);
  });
  return found;
}

// Each facet value's count as the search page shows it: the listings the query would find with that value
// chosen for its facet in place of any other.
function bruteCounts(query, kind) {
  const counts = {};
  for (const facet of kind.facets) {
    const tally = new Map();
    for (const number of bruteForce(query, facet.name)) {
      // A collection's document counts once for a value that several of its entries have.
      for (const value of new Set(documents[number].facets[facet.name] || [])) tally.set(value, (tally.get(value) || 0) + 1);
    }
    counts[facet.name] = facet.values.map((value) => tally.get(value[0]) || 0);
  }
  return counts;
}

// A seeded generator (mulberry32), so a failure can be run again.
let state = Number(seedText) >>> 0;
function random() {
  state = (state + 0x6d2b79f5) >>> 0;
  let t = state;
  t = Math.imul(t ^ (t >>> 15), t | 1);
  t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
  return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
}
const pick = (list) => list[Math.floor(random() * list.length)];

// A word as a visitor might type it: whole, its start, in capitals, a CJK piece, or a kind's name or its start.
const withCJK = documents.filter((doc, number) => wordsOf[number].some((word) => CJK.test(word[0])));

function typedWord() {
  const doc = withCJK.length && random() < 0.15 ? pick(withCJK) : pick(documents);
  const raw = (doc.title + ' ' + doc.text).match(/[\p{L}\p{N}]+/gu) || ['nothing'];
  const word = pick(raw);
  const characters = Array.from(word);
  const cjkRuns = engine.words(word).filter((w) => CJK.test(w[0]));
  const choice = random();
  if (cjkRuns.length && choice < 0.6) {
    const run = Array.from(pick(cjkRuns));
    const start = Math.floor(random() * run.length);
    const length = 1 + Math.floor(random() * Math.min(4, run.length - start));
    return run.slice(start, start + length).join('');
  }
  if (choice < 0.35) return characters.slice(0, 1 + Math.floor(random() * characters.length)).join('');
  if (choice < 0.5) return word.toUpperCase();
  if (choice < 0.55) return pick(['zqxj', 'ü', 'ß', 'Ø', 'ǅ', 'ﬁre', 'Ａｂ', '東', 'ß' + word]);
  if (choice < 0.65) {
    const kindWord = Array.from(pick(Object.values(kindWords).flat()));
    return kindWord.slice(0, 2 + Math.floor(random() * (kindWord.length - 1))).join('');
  }
  return word;
}

function generatedQuery(meta) {
  const query = { words: '', kind: '', facets: {}, min: null, max: null, sort: '' };
  if (withCJK.length && random() < 0.1) {
    // A piece of CJK text alone, as someone searching in those scripts types it.
    const runs = engine.words(pick(withCJK).text).filter((word) => CJK.test(word[0]) && word.length > 1);
    const run = Array.from(pick(runs)), start = Math.floor(random() * (run.length - 1));
    query.words = run.slice(start, start + 2 + Math.floor(random() * 3)).join('');
    return query;
  }
  const count = random() < 0.15 ? 0 : random() < 0.7 ? 1 : 2;
  query.words = Array.from({ length: count }, typedWord).join(pick([' ', ' ', ', ', '-']));
  if (random() < 0.6) {
    const kind = pick(meta.kinds);
    query.kind = kind.name;
    // One facet chosen, sometimes two (the counts then leave each out in turn).
    const chosen = !kind.facets.length || random() >= 0.6 ? 0 : random() < 0.7 ? 1 : 2;
    for (let n = 0; n < chosen; n++) {
      const facet = pick(kind.facets);
      query.facets[facet.name] = random() < 0.95 ? pick(facet.values)[0] : 'No such value';
    }
    if (kind.range && random() < 0.4) {
      const values = documents.filter((doc) => doc.kind === kind.name && doc.range != null).map((doc) => doc.range);
      if (values.length) {
        if (random() < 0.7) query.min = pick(values);
        if (random() < 0.7) query.max = pick(values);
      }
    }
    if (kind.sorts.length && random() < 0.3) query.sort = pick(kind.sorts).field;
  }
  return query;
}

async function main() {
  const meta = await search.meta();
  let differences = 0, withResults = 0, withCJK = 0, cjkWithResults = 0, countsChecked = 0, withoutWords = 0;
  for (let n = 0; n < Number(queryCount); n++) {
    const query = generatedQuery(meta);
    const fromIndex = await search.run(query);
    const expected = bruteForce(query);
    const same = fromIndex.length === expected.length && [...fromIndex].sort((a, b) => a - b).every((doc, i) => doc === expected[i]);
    if (expected.length) withResults++;
    if (CJK.test(query.words)) { withCJK++; if (expected.length) cjkWithResults++; }
    if (!same) {
      differences++;
      if (differences <= 5) console.log(`differs: ${JSON.stringify(query)}: index ${fromIndex.length}, brute force ${expected.length}`);
    }
    const kind = meta.kinds.find((k) => k.name === query.kind);
    if (kind) {
      const [counts, expectedCounts] = [await search.counts(query), bruteCounts(query, kind)];
      countsChecked++;
      if (JSON.stringify(counts) !== JSON.stringify(expectedCounts)) {
        differences++;
        console.log(`counts differ: ${JSON.stringify(query)}: index ${JSON.stringify(counts)}, brute force ${JSON.stringify(expectedCounts)}`);
      }
    }
    if (query.sort === '' && engine.words(query.words).length && !inRelevanceOrder(fromIndex, query)) {
      differences++;
      console.log(`not in relevance order: ${JSON.stringify(query)}`);
    }
    if (query.sort === '' && !engine.words(query.words).length) {
      withoutWords++;
      if (!inListOrder(fromIndex)) {
        differences++;
        console.log(`not in the list's order: ${JSON.stringify(query)}`);
      }
    }
  }
  console.log(`search equality: ${queryCount} queries (${withResults} finding something, ${withCJK} with CJK, ` +
    `${cjkWithResults} of them finding something; facet counts for ${countsChecked}; ${withoutWords} without words), ` +
    `${differences} differences`);
  process.exit(differences ? 1 : 0);
}

// Whether the title has a query word; a CJK word when the title has each of its pairs of characters.
function inTitle(term, title) {
  const characters = Array.from(term);
  if (characters.length === 1) return title.includes(term);
  if (!CJK.test(term[0])) return title.some((word) => word.startsWith(term));
  return characters.slice(1).every((c, i) => title.some((word) => word.includes(characters[i] + c)));
}

// Relevance: more query words in the title first, then document order.
function inRelevanceOrder(found, query) {
  const terms = engine.words(query.words);
  const score = (number) => {
    const title = engine.words(documents[number].title);
    return terms.filter((term) => inTitle(term, title)).length;
  };
  for (let i = 1; i < found.length; i++) {
    const [a, b] = [score(found[i - 1]), score(found[i])];
    if (a < b || (a === b && found[i - 1] > found[i])) return false;
  }
  return true;
}

// Without words: kind by kind, in the order of the index's kinds, each kind's as its list pages show it.
function inListOrder(found) {
  const kindIndex = Object.fromEntries(kinds.map((kind, index) => [kind.name, index]));
  const key = (number) => [kindIndex[documents[number].kind], documents[number].place];
  for (let i = 1; i < found.length; i++) {
    const [a, b] = [key(found[i - 1]), key(found[i])];
    if (a[0] > b[0] || (a[0] === b[0] && a[1] >= b[1])) return false;
  }
  return true;
}

main().catch((error) => { console.error(error); process.exit(2); });
