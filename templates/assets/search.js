// Noticeboard search: queries the build's split index (api/search/, see README "Search") and fetches only the
// files a query needs. The engine (fold, words, Search) is also loaded by node in the tests; the page part
// runs only in a browser.
(function () {
  'use strict';

  // Folding, as the index folds (Sources/Rendering/SearchWords.swift).
  var LETTERS = { 'ß': 'ss', 'æ': 'ae', 'œ': 'oe', 'ø': 'o', 'ł': 'l', 'đ': 'd', 'ð': 'd', 'þ': 'th', 'ħ': 'h', 'ı': 'i',
    'ŧ': 't', 'ŀ': 'l', 'ĸ': 'k', 'ŋ': 'n', 'ſ': 's', 'ǥ': 'g', 'ƀ': 'b', 'ɨ': 'i', 'ʉ': 'u', 'ς': 'σ' };
  var LETTER = new RegExp('[' + Object.keys(LETTERS).join('') + ']', 'g');
  var CJK = /[\u1100-\u11FF\u2E80-\u2FDF\u3040-\u318F\u31A0-\u31FF\u3400-\u4DBF\u4E00-\u9FFF\uA960-\uA97F\uAC00-\uD7FF\uF900-\uFAFF\uFF66-\uFF9F\u{20000}-\u{3134F}]/u;
  var DIGITS = '0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ-_';
  var DIGIT = new Int8Array(128);
  for (var d = 0; d < DIGITS.length; d++) DIGIT[DIGITS.charCodeAt(d)] = d;

  function fold(text) {
    return text.toLowerCase().normalize('NFKD').replace(/\p{Mn}/gu, '')
      .replace(LETTER, function (letter) { return LETTERS[letter]; }).normalize('NFC');
  }

  // The folded words of a text: runs of letters and numbers, CJK runs apart from others.
  function words(text) {
    var found = [];
    fold(text).split(/[^\p{L}\p{N}]+/u).forEach(function (run) {
      var word = '', wordIsCJK = false;
      for (var character of run) {
        var isCJK = CJK.test(character);
        if (word && isCJK !== wordIsCJK) { found.push(word); word = ''; }
        word += character;
        wordIsCJK = isCJK;
      }
      if (word) found.push(word);
    });
    return found;
  }

  // A query word: a CJK run of two or more characters matches as a substring, any other word of one
  // character as a whole word, any other word as the start of a word.
  function queryTerms(text) {
    return words(text).map(function (word) {
      var characters = Array.from(word);
      var how = characters.length === 1 ? 'word' : CJK.test(characters[0]) ? 'substring' : 'prefix';
      return { text: word, how: how, characters: characters };
    });
  }

  // Postings (Sources/Rendering/SearchPostings.swift): base-64 variable-length numbers.
  function reader(text) {
    var at = 0;
    return {
      more: function () { return at < text.length; },
      next: function () {
        var number = 0, scale = 1, digit;
        do {
          digit = DIGIT[text.charCodeAt(at++)];
          number += (digit & 31) * scale;
          scale *= 32;
        } while (digit >= 32);
        return number;
      }
    };
  }

  function documentsOf(postings) {
    var read = reader(postings), found = [], last = 0;
    while (read.more()) { last += read.next(); found.push(last); }
    return found;
  }

  // A term's documents, with whether their titles have it; a bigram's also with its positions.
  function decodeTerm(postings, isBigram) {
    var read = reader(postings), documents = [], titles = [], positions = [], last = 0;
    while (read.more()) {
      var value = read.next();
      last += Math.floor(value / 2);
      documents.push(last);
      titles.push(value & 1);
      if (!isBigram) continue;
      var count = read.next(), at = [], position = 0;
      for (var i = 0; i < count; i++) { position += read.next(); at.push(position); }
      positions.push(at);
    }
    return { documents: documents, titles: titles, positions: positions };
  }

  // The last index whose separator is not after `text`.
  function fileOf(separators, text) {
    var low = 0, high = separators.length - 1;
    while (low < high) {
      var middle = (low + high + 1) >> 1;
      if (separators[middle] <= text) low = middle; else high = middle - 1;
    }
    return low;
  }

  // The index, read through `load(path below api/search/)`, which returns a promise of the parsed JSON.
  function Search(load) {
    this.load = load;
    this.files = {};
    this.decoded = {};
  }

  // Each file is asked for once; one that failed to load is asked for again when next needed, so a dropped
  // connection does not end the search.
  Search.prototype.file = function (path) {
    var files = this.files;
    if (!files[path]) files[path] = this.load(path).catch(function (error) { delete files[path]; throw error; });
    return files[path];
  };

  Search.prototype.meta = function () {
    var self = this;
    if (!this.prepared) {
      this.prepared = this.file('meta.json').then(function (meta) {
        meta.kinds.forEach(function (kind, index) { kind.index = index; });
        return meta;
      }, function (error) { self.prepared = null; throw error; });
    }
    return this.prepared;
  };

  // A term's postings decoded, once.
  Search.prototype.term = function (name, postings, isBigram) {
    var key = (isBigram ? 'b:' : 'w:') + name;
    if (!this.decoded[key]) this.decoded[key] = decodeTerm(postings, isBigram);
    return this.decoded[key];
  };

  // For each document, 0 when the query word is not in it, 1 when it is, 3 when its title has it.
  Search.prototype.marks = function (meta, term) {
    var self = this, separators = meta.terms;
    var first = fileOf(separators, term.text);
    var last = term.how === 'prefix' ? fileOf(separators, term.text + '\uffff') : first;
    var numbers = [];
    for (var n = first; n <= last; n++) numbers.push(n);
    return Promise.all(numbers.map(function (n) { return self.file('terms/' + n + '.json'); })).then(function (files) {
      var marks = new Uint8Array(meta.documents);
      files.forEach(function (file) {
        if (!file.names) file.names = Object.keys(file.terms);
        file.names.forEach(function (name) {
          if (term.how === 'prefix' ? !name.startsWith(term.text) : name !== term.text) return;
          var found = self.term(name, file.terms[name], false);
          for (var i = 0; i < found.documents.length; i++) marks[found.documents[i]] |= 1 | (found.titles[i] << 1);
        });
      });
      return marks;
    });
  };

  // A CJK query word: marks as `marks` gives them, for the documents where each of its pairs of characters
  // occurs one position after the one before (so the whole run is there), with the title's flag when every
  // pair is in the title.
  Search.prototype.substringMarks = function (meta, term) {
    var self = this, characters = term.characters, bigrams = [];
    for (var i = 0; i + 1 < characters.length; i++) bigrams.push(characters[i] + characters[i + 1]);
    return Promise.all(bigrams.map(function (bigram) {
      return self.file('terms/' + fileOf(meta.terms, bigram) + '.json');
    })).then(function (files) {
      var marks = new Uint8Array(meta.documents);
      var terms = bigrams.map(function (bigram, index) {
        var postings = files[index].terms[bigram];
        return postings === undefined ? null : self.term(bigram, postings, true);
      });
      if (terms.some(function (found) { return found === null; })) return marks;
      var byDocument = terms.map(function (found) {
        var map = new Map();
        found.documents.forEach(function (document, index) { map.set(document, index); });
        return map;
      });
      terms[0].documents.forEach(function (document, index) {
        var title = 1;
        var starts = terms[0].positions[index].filter(function (start) {
          return terms.every(function (found, k) {
            var at = byDocument[k].get(document);
            if (at === undefined) return false;
            title &= found.titles[at];
            return found.positions[at].indexOf(start + k) >= 0;
          });
        });
        if (starts.length) marks[document] = 1 | (title << 1);
      });
      return marks;
    });
  };

  // Whether a folded word matches a query term as the index matches it: whole, from its start, or within it.
  function matchesTerm(word, term) {
    return term.how === 'prefix' ? word.startsWith(term.text) : term.how === 'word' ? word === term.text : word.indexOf(term.text) >= 0;
  }

  // A kind's title and singular are words of each of its documents, outside their titles, so that 'cleaner'
  // finds every cleaner and 'cleaner cork' those in Cork. `marks` as `marks` gives them, marked in place.
  function withKindNames(meta, term, marks) {
    meta.kinds.forEach(function (kind) {
      if (!kind.words) kind.words = words(kind.title + ' ' + kind.singular);
      if (!kind.words.some(function (word) { return matchesTerm(word, term); })) return;
      for (var document = kind.first; document < kind.first + kind.count; document++) marks[document] |= 1;
    });
    return marks;
  }

  function kindNamed(meta, name) {
    return meta.kinds.filter(function (kind) { return kind.name === name; })[0] || null;
  }

  // A promise of the documents a query finds, in the order asked for.
  // query: {words, kind (name or ''), facets: {name: value name}, min, max (numbers or null), sort (field or '')}
  Search.prototype.run = function (query) {
    var self = this;
    return this.meta().then(function (meta) {
      var kind = kindNamed(meta, query.kind);
      return Promise.all([self.tests(meta, kind, query), self.order(meta, kind, query)]).then(function (parts) {
        return self.found(meta, kind, parts[0], parts[1]);
      });
    });
  };

  // A promise of how many documents each of the kind's facet values would find: the query with that value
  // chosen for its facet in place of any other. {facet name: [count of each value]}; null without a kind.
  Search.prototype.counts = function (query) {
    var self = this;
    return this.meta().then(function (meta) {
      var kind = kindNamed(meta, query.kind);
      if (!kind) return null;
      if (!kind.facets.length) return {};
      var values = kind.facets.map(function (facet, facetIndex) {
        return Promise.all(facet.values.map(function (_, valueIndex) { return self.value(kind, facetIndex, valueIndex); }));
      });
      return Promise.all([self.tests(meta, kind, query), Promise.all(values)]).then(function (parts) {
        return tally(kind, parts[0], parts[1]);
      });
    });
  };

  // A promise of what a document must pass: `marks`, one per query word (see `marks`), and `filters`, each
  // {facet: the facet's index or -1 for the range, passes: function of a document}.
  Search.prototype.tests = function (meta, kind, query) {
    var self = this;
    var marks = queryTerms(query.words || '').map(function (term) {
      var found = term.how === 'substring' ? self.substringMarks(meta, term) : self.marks(meta, term);
      return found.then(function (marks) { return withKindNames(meta, term, marks); });
    });
    var filters = kind ? self.filters(kind, query) : [];
    return Promise.all([Promise.all(marks), Promise.all(filters)]).then(function (parts) {
      return { marks: parts[0], filters: parts[1] };
    });
  };

  // Promises of the kind's facet and range filters the query asks for.
  Search.prototype.filters = function (kind, query) {
    var self = this, filters = [];
    kind.facets.forEach(function (facet, facetIndex) {
      var wanted = query.facets && query.facets[facet.name];
      if (!wanted) return;
      var valueIndex = facet.values.findIndex(function (value) { return value[0] === wanted; });
      if (valueIndex < 0) { filters.push(Promise.resolve({ facet: facetIndex, passes: function () { return false; } })); return; }
      filters.push(self.value(kind, facetIndex, valueIndex).then(function (documents) {
        var mask = new Uint8Array(kind.count);
        for (var i = 0; i < documents.length; i++) mask[documents[i]] = 1;
        return { facet: facetIndex, passes: function (document) { return mask[document - kind.first] === 1; } };
      }));
    });
    var hasMin = typeof query.min === 'number' && !isNaN(query.min), hasMax = typeof query.max === 'number' && !isNaN(query.max);
    if (kind.range && (hasMin || hasMax)) {
      filters.push(self.file(kind.range.file).then(function (file) {
        return { facet: -1, passes: function (document) {
          var value = file.values[document - kind.first];
          return value !== null && (!hasMin || value >= query.min) && (!hasMax || value <= query.max);
        } };
      }));
    }
    return filters;
  };

  // A promise of the kind's documents that have a facet's value, counted from the kind's first document, in order.
  Search.prototype.value = function (kind, facetIndex, valueIndex) {
    var self = this, facet = kind.facets[facetIndex], key = kind.index + '.' + facetIndex + '.' + valueIndex;
    if (self.decoded[key]) return Promise.resolve(self.decoded[key]);
    // The kind's documents are ordered by the values of its cluster facet: a value's documents are one stretch.
    if (facet.name === kind.cluster) {
      var start = 0;
      for (var i = 0; i < valueIndex; i++) start += facet.values[i][1];
      self.decoded[key] = new Int32Array(facet.values[valueIndex][1]).map(function (_, offset) { return start + offset; });
      return Promise.resolve(self.decoded[key]);
    }
    return self.file('facets/' + facet.values[valueIndex][2] + '.json').then(function (file) {
      if (!self.decoded[key]) {
        self.decoded[key] = Int32Array.from(documentsOf(file.values[key]), function (document) { return document - kind.first; });
      }
      return self.decoded[key];
    });
  };

  // Where a document stands against the tests: EXCLUDED when it fails a word or the range, or two facets'
  // filters; PASSES when it passes them all; else the index of the one facet whose filter it fails.
  var EXCLUDED = -2, PASSES = -1;
  function standing(document, tests) {
    for (var t = 0; t < tests.marks.length; t++) if (tests.marks[t][document] === 0) return EXCLUDED;
    var failed = PASSES;
    for (var f = 0; f < tests.filters.length; f++) {
      var filter = tests.filters[f];
      if (filter.passes(document)) continue;
      if (filter.facet < 0 || failed !== PASSES) return EXCLUDED;
      failed = filter.facet;
    }
    return failed;
  }

  // A value's count: the documents that have it and pass every test but, perhaps, its own facet's filter.
  function tally(kind, tests, values) {
    var standings = new Int32Array(kind.count), counts = {};
    for (var i = 0; i < kind.count; i++) standings[i] = standing(kind.first + i, tests);
    kind.facets.forEach(function (facet, facetIndex) {
      counts[facet.name] = values[facetIndex].map(function (documents) {
        var count = 0;
        for (var i = 0; i < documents.length; i++) {
          var stands = standings[documents[i]];
          if (stands === PASSES || stands === facetIndex) count++;
        }
        return count;
      });
    });
    return counts;
  }

  // A promise of each document's rank: in the chosen sort; without one and without words, in its kind's list
  // order, kind by kind, as the list pages show them; else null (relevance, then document order).
  Search.prototype.order = function (meta, kind, query) {
    var sort = kind && kind.sorts.filter(function (s) { return s.field === query.sort; })[0];
    if (sort) {
      return this.file(sort.file).then(function (file) {
        return function (document) { return file.ranks[document - kind.first]; };
      });
    }
    if (queryTerms(query.words || '').length) return Promise.resolve(null);
    var self = this, kinds = kind ? [kind] : meta.kinds;
    return Promise.all(kinds.map(function (k) { return self.listPlaces(k); })).then(function (places) {
      return function (document) {
        for (var k = 0; k < kinds.length; k++) {
          var offset = document - kinds[k].first;
          if (offset >= 0 && offset < kinds[k].count) return kinds[k].first + places[k][offset];
        }
      };
    });
  };

  // A promise of where each of the kind's documents (from its first) stands in its list, decoded once.
  Search.prototype.listPlaces = function (kind) {
    var key = 'order:' + kind.index, decoded = this.decoded;
    if (decoded[key]) return Promise.resolve(decoded[key]);
    return this.file(kind.order).then(function (file) {
      if (!decoded[key]) {
        var places = new Int32Array(kind.count), at = 0;
        file.runs.forEach(function (run) { documentsOf(run).forEach(function (place) { places[at++] = place; }); });
        decoded[key] = places;
      }
      return decoded[key];
    });
  };

  Search.prototype.found = function (meta, kind, tests, rank) {
    var from = kind ? kind.first : 0, to = kind ? kind.first + kind.count : meta.documents;
    var documents = [], keys = [];
    for (var document = from; document < to; document++) {
      if (standing(document, tests) !== PASSES) continue;
      var score = 0;
      for (var t = 0; t < tests.marks.length; t++) score += tests.marks[t][document] >> 1;
      documents.push(document);
      // Relevance: the higher score first, then the earlier document.
      keys.push(rank ? rank(document) : -score);
    }
    var order = documents.map(function (_, index) { return index; });
    order.sort(function (a, b) { return keys[a] - keys[b] || a - b; });
    return order.map(function (index) { return documents[index]; });
  };

  // The cards of these documents, with the kind each belongs to.
  Search.prototype.cards = function (documents) {
    var self = this;
    return this.meta().then(function (meta) {
      var files = {};
      documents.forEach(function (document) { files[fileOf(meta.cards, document)] = true; });
      return Promise.all(Object.keys(files).map(function (number) {
        return self.file('cards/' + number + '.json').then(function (file) { files[number] = file; });
      })).then(function () {
        return documents.map(function (document) {
          var number = fileOf(meta.cards, document), card = files[number].cards[document - meta.cards[number]];
          var kind = meta.kinds.filter(function (k) { return document >= k.first && document < k.first + k.count; })[0];
          return { document: document, kind: kind, title: card[0], path: card[1], thumbnail: card[2], figures: card[3], facets: card[4], summary: card[5],
            entries: card[6] || null };
        });
      });
    });
  };

  // What to try when a query finds nothing, from the index files its run loaded (a corrected word may need the
  // next term file): the query with its words corrected (`nearWords`), and without each facet chosen and without
  // the range, each that finds something, as {leaves: 'words', a facet's name or 'range', query, count}.
  Search.prototype.suggestions = function (query) {
    var self = this;
    return this.meta().then(function (meta) {
      return self.nearWords(meta, query.words || '').then(function (near) {
        var tries = [];
        if (near !== null) tries.push({ leaves: 'words', query: Object.assign({}, query, { words: near }) });
        Object.keys(query.facets || {}).forEach(function (name) {
          var facets = Object.assign({}, query.facets);
          delete facets[name];
          tries.push({ leaves: name, query: Object.assign({}, query, { facets: facets }) });
        });
        if (query.min !== null || query.max !== null) tries.push({ leaves: 'range', query: Object.assign({}, query, { min: null, max: null }) });
        return Promise.all(tries.map(function (attempt) {
          return self.run(attempt.query).then(function (found) { attempt.count = found.length; return attempt; });
        }));
      });
    }).then(function (tries) { return tries.filter(function (attempt) { return attempt.count > 0; }); });
  };

  // The words with each that no term or kind name matches replaced by the nearest term of the term files its
  // lookup read (`nearestTerm`), folded; null when every word matches, or one has no term near it.
  Search.prototype.nearWords = function (meta, text) {
    var self = this, changed = false;
    return Promise.all(queryTerms(text).map(function (term) {
      if (term.how === 'substring' || isKindWord(meta, term)) return term.text;
      return self.termNames(meta, term).then(function (terms) {
        for (var name of terms.keys()) if (matchesTerm(name, term)) return term.text;
        changed = true;
        return nearestTerm(term.text, terms);
      });
    })).then(function (near) {
      return changed && near.every(function (word) { return word !== null; }) ? near.join(' ') : null;
    });
  };

  function isKindWord(meta, term) {
    return meta.kinds.some(function (kind) {
      return words(kind.title + ' ' + kind.singular).some(function (word) { return matchesTerm(word, term); });
    });
  }

  // A promise of the terms of the files a query word's lookup reads (`marks`): a Map of each to the length of its
  // postings, which grows with the documents that have it.
  Search.prototype.termNames = function (meta, term) {
    var first = fileOf(meta.terms, term.text), last = term.how === 'prefix' ? fileOf(meta.terms, term.text + '\uffff') : first, self = this;
    var numbers = [];
    for (var n = first; n <= last; n++) numbers.push(n);
    return Promise.all(numbers.map(function (n) { return self.file('terms/' + n + '.json'); })).then(function (files) {
      var terms = new Map();
      files.forEach(function (file) { Object.keys(file.terms).forEach(function (name) { terms.set(name, file.terms[name].length); }); });
      return terms;
    });
  };

  // Of `terms` (a Map of term to postings' length), the nearest to `word` by edits (a letter added, dropped,
  // changed, or two swapped): at most one for a word of up to 4 letters, two for a longer one, none for one of 2
  // or fewer. Of those as near, a longer one first, then one as long, then a shorter (a letter left out is the
  // commoner slip, and a word is often typed in part: 'ovn' is 'oven' rather than 'own' or 'on'), then the one in
  // most documents. Null when none is that near.
  function nearestTerm(word, terms) {
    var letters = Array.from(word), allowed = letters.length <= 2 ? 0 : letters.length <= 4 ? 1 : 2;
    var best = null, bestRank = null;
    terms.forEach(function (weight, name) {
      var characters = Array.from(name), distance = editDistance(letters, characters, allowed);
      if (distance > allowed) return;
      var rank = [distance, Math.sign(letters.length - characters.length), -weight];
      if (bestRank === null || compareRanks(rank, bestRank) < 0) { best = name; bestRank = rank; }
    });
    return best;
  }

  function compareRanks(a, b) {
    for (var i = 0; i < a.length; i++) if (a[i] !== b[i]) return a[i] - b[i];
    return 0;
  }

  // The optimal string alignment distance between two lists of characters, or `most` + 1 once it must pass `most`.
  function editDistance(a, b, most) {
    if (Math.abs(a.length - b.length) > most) return most + 1;
    var before = null, last = [], row;
    for (var j = 0; j <= b.length; j++) last.push(j);
    for (var i = 1; i <= a.length; i++) {
      row = [i];
      var smallest = i;
      for (j = 1; j <= b.length; j++) {
        var cost = a[i - 1] === b[j - 1] ? 0 : 1;
        var value = Math.min(last[j] + 1, row[j - 1] + 1, last[j - 1] + cost);
        if (before && i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) value = Math.min(value, before[j - 2] + 1);
        row.push(value);
        smallest = Math.min(smallest, value);
      }
      if (smallest > most) return most + 1;
      before = last;
      last = row;
    }
    return last[b.length];
  }

  // The entry of a collection's card that a query points at, by its place (its anchor is #entry-<place>); each
  // entry is [its first text field, the words of its others, {facet over entries: [its values]}]. Of the
  // entries with every value chosen for a facet over them, the first with the most of the query's words; -1 for
  // a card without entries, or when no entry has a word of the query and no facet over them is chosen.
  function entryOf(card, terms, facets) {
    if (!card.entries || !card.entries.length) return -1;
    var chosen = Object.keys(facets || {}).filter(function (name) { return facets[name] && name in card.entries[0][2]; });
    var best = -1, bestScore = chosen.length ? 0 : 1;
    card.entries.forEach(function (entry, place) {
      if (!chosen.every(function (name) { return entry[2][name].indexOf(facets[name]) >= 0; })) return;
      var entryWords = words(entry[0] + ' ' + entry[1]), score = 0;
      terms.forEach(function (term) { if (entryWords.some(function (word) { return matchesTerm(word, term); })) score++; });
      if (score >= bestScore && (best < 0 || score > bestScore)) { best = place; bestScore = score; }
    });
    return best;
  }

  // The field of an entry's others (`entry[1]`, field from field by ' · ') that has a word of the query, for a
  // result to show where its text does not: a quote found by its author shows the author. '' when none has one.
  function entryElsewhere(entry, terms) {
    var parts = entry[1].split(' \u00b7 ');
    for (var index = 0; index < parts.length; index++) {
      var found = words(parts[index]).some(function (word) {
        return terms.some(function (term) { return matchesTerm(word, term); });
      });
      if (found) return parts[index];
    }
    return '';
  }

  // The page: the form's state in the address, results in pages of PAGE.
  var PAGE = 20, RESULTS_SHOWN = 'noticeboard-search-results', COUNTS_SHOWN = 'noticeboard-search-counts';

  function startPage(engine) {
    var form = document.getElementById('search');
    var base = form.getAttribute('data-index');
    var element = function (id) { return document.getElementById(id); };
    var words = element('search-words'), kindSelect = element('search-kind'), facetBox = element('search-facets');
    var rangeBox = element('search-range'), minInput = element('search-min'), maxInput = element('search-max');
    var sortSelect = element('search-sort'), status = element('search-status'), results = element('search-results');
    var more = element('search-more');
    var search = new engine.Search(function (path) {
      return fetch(base + path).then(function (response) {
        if (!response.ok) throw new Error(response.status + ' ' + response.statusText);
        return response.json();
      });
    });
    var meta = null, found = [], shown = 0, latest = 0, typedIn = null;
    form.hidden = false;
    element('search-browse').hidden = true;
    status.textContent = 'Loading the index…';

    function option(value, label) {
      var choice = document.createElement('option');
      choice.value = value;
      choice.textContent = label;
      return choice;
    }

    function chosenKind() {
      return kindNamed(meta, kindSelect.value);
    }

    // The kind's facet selects, range and sort orders, set from `params` (a URLSearchParams) when given.
    function showKind(params) {
      var kind = chosenKind();
      facetBox.textContent = '';
      rangeBox.hidden = !(kind && kind.range);
      if (kind && kind.range) element('search-range-label').textContent = kind.range.label;
      sortSelect.textContent = '';
      sortSelect.appendChild(option('', 'Relevance'));
      if (!kind) return;
      kind.sorts.forEach(function (sort) { sortSelect.appendChild(option(sort.field, sort.label)); });
      if (params) sortSelect.value = params.get('sort') || '';
      if (sortSelect.selectedIndex < 0) sortSelect.value = '';
      kind.facets.forEach(function (facet, index) {
        var id = 'search-facet-' + index, paragraph = document.createElement('p'), label = document.createElement('label');
        var select = document.createElement('select');
        label.htmlFor = id;
        label.textContent = facet.label;
        select.id = id;
        select.name = facet.name;
        select.appendChild(option('', 'Any'));
        // Counted once the query's results show (showCounts): the index's totals ignore the words.
        facet.values.forEach(function (value) { select.appendChild(option(value[0], value[0])); });
        var asked = params ? params.get(facet.name) : null;
        // A value no listing has (a mistyped or outdated link) is kept, and matches nothing, rather than
        // dropped, which would show every listing as if it matched.
        if (asked && !facet.values.some(function (value) { return value[0] === asked; })) select.appendChild(option(asked, counted(asked, 0)));
        if (asked !== null) select.value = asked;
        if (select.selectedIndex < 0) select.value = '';
        paragraph.appendChild(label);
        paragraph.appendChild(document.createTextNode(' '));
        paragraph.appendChild(select);
        facetBox.appendChild(paragraph);
      });
    }

    function counted(name, count) {
      return name + ' (' + count + ')';
    }

    // Each value's count as the other choices and the words leave it: what choosing it would find.
    function showCounts(counts) {
      var kind = chosenKind();
      if (!counts || !kind) return;
      kind.facets.forEach(function (facet, index) {
        var options = element('search-facet-' + index).options;
        facet.values.forEach(function (value, valueIndex) {
          var choice = options[valueIndex + 1], count = counts[facet.name][valueIndex];
          choice.textContent = counted(value[0], count);
          // Choosing it would find nothing: shown, greyed and passed over, unless it is the choice already made.
          choice.disabled = count === 0 && !choice.selected;
        });
        // A value no listing has, kept from the address (showKind): it finds nothing once it is not the choice.
        for (var kept = facet.values.length + 1; kept < options.length; kept++) options[kept].disabled = !options[kept].selected;
      });
      markOnce(COUNTS_SHOWN);
    }

    function number(input) {
      return !rangeBox.hidden && input.value !== '' && !isNaN(Number(input.value)) ? Number(input.value) : null;
    }

    function query() {
      var facets = {};
      facetBox.querySelectorAll('select').forEach(function (select) { if (select.value) facets[select.name] = select.value; });
      return { words: words.value, kind: kindSelect.value, facets: facets, min: number(minInput), max: number(maxInput), sort: sortSelect.value };
    }

    function address() {
      return addressOf(query());
    }

    // The address of a query, with From and To as they were typed.
    function addressOf(asked) {
      var params = new URLSearchParams();
      if (asked.words) params.set('q', asked.words);
      if (asked.kind) params.set('kind', asked.kind);
      Object.keys(asked.facets).forEach(function (name) { params.set(name, asked.facets[name]); });
      if (asked.min !== null) params.set('min', minInput.value);
      if (asked.max !== null) params.set('max', maxInput.value);
      if (asked.sort) params.set('sort', asked.sort);
      var text = params.toString();
      return text ? '?' + text : location.pathname;
    }

    // Typing on in the same box (the words, From, To) replaces the address's entry; any other change adds
    // one, so Back undoes a whole run of typing, or a choice, at a time.
    function remember(target) {
      var typing = target === words || target === minInput || target === maxInput ? target : null;
      if (typing && typing === typedIn) history.replaceState({}, '', address());
      else history.pushState({}, '', address());
      typedIn = typing;
    }

    function fromAddress() {
      var params = new URLSearchParams(location.search);
      words.value = params.get('q') || '';
      kindSelect.value = params.get('kind') || '';
      if (kindSelect.selectedIndex < 0) kindSelect.value = '';
      minInput.value = params.get('min') || '';
      maxInput.value = params.get('max') || '';
      showKind(params);
    }

    function run() {
      var asked = query(), ticket = ++latest;
      status.textContent = 'Searching…';
      search.run(asked).then(function (documents) {
        if (ticket !== latest) return;
        found = documents;
        shown = 0;
        results.textContent = '';
        return showMore(ticket, asked).then(function () {
          if (found.length === 0) suggest(ticket, asked);
          return countAfter(ticket, asked);
        });
      }).catch(function (error) { if (ticket === latest) failed(error); });
    }

    // After the results, so that they never wait for every facet value's documents; without the counts (a
    // facet file that would not load) the results stand.
    function countAfter(ticket, asked) {
      if (ticket !== latest) return;
      return search.counts(asked).then(function (counts) { if (ticket === latest) showCounts(counts); }, noCounts);
    }

    // `focusFirst`: the first new result takes the focus, as after "Show more", which may hide itself.
    function showMore(ticket, asked, focusFirst) {
      var page = found.slice(shown, shown + PAGE);
      return search.cards(page).then(function (cards) {
        if (ticket !== latest) return;
        var terms = engine.queryTerms(asked.words), first = results.children.length;
        cards.forEach(function (card) { results.appendChild(cardElement(card, terms, asked.facets)); });
        if (focusFirst && results.children[first]) results.children[first].querySelector('a').focus();
        shown += cards.length;
        more.hidden = shown >= found.length;
        markOnce(RESULTS_SHOWN);
        status.textContent = found.length === 0 ? 'Nothing matches.'
          : (found.length === 1 ? '1 result' : found.length + ' results') + (shown < found.length ? ', ' + shown + ' shown.' : '.');
      });
    }

    // When nothing matches, what to try instead (Search.suggestions), as links in the status that search again.
    function suggest(ticket, asked) {
      search.suggestions(asked).then(function (tries) {
        if (ticket !== latest || !tries.length) return;
        status.appendChild(document.createTextNode(' Try '));
        tries.forEach(function (attempt, index) {
          if (index) status.appendChild(document.createTextNode(index === tries.length - 1 ? ' or ' : ', '));
          status.appendChild(suggestionLink(attempt, asked));
        });
        status.appendChild(document.createTextNode('.'));
      }, function (error) {
        console.warn('Noticeboard search: no suggestions (' + error.message + ')');
      });
    }

    // A link to a query that finds something, named by what it changes of `asked`: "‘kayak’ (2 results)",
    // "without County ‘Kerry’ (3 results)".
    function suggestionLink(attempt, asked) {
      var link = document.createElement('a'), kind = chosenKind();
      link.href = addressOf(attempt.query);
      link.textContent = changeText(attempt, asked, kind) + ' (' + (attempt.count === 1 ? '1 result' : attempt.count + ' results') + ')';
      link.addEventListener('click', function (event) {
        event.preventDefault();
        history.pushState({}, '', link.href);
        typedIn = null;
        fromAddress();
        run();
      });
      return link;
    }

    function changeText(attempt, asked, kind) {
      var leaves = attempt.leaves;
      if (leaves === 'words') return '\u2018' + attempt.query.words + '\u2019';
      if (leaves === 'range') return 'without ' + kind.range.label + ' from ' + (asked.min === null ? '…' : asked.min) + ' to ' + (asked.max === null ? '…' : asked.max);
      var facet = kind.facets.filter(function (f) { return f.name === leaves; })[0];
      return 'without ' + facet.label + ' \u2018' + asked.facets[leaves] + '\u2019';
    }

    // For measuring what the first results and counts cost: resource timing up to these marks.
    function markOnce(name) {
      if (performance.getEntriesByName(name, 'mark').length === 0) performance.mark(name);
    }

    function noCounts(error) {
      console.warn('Noticeboard search: the facet counts could not be loaded (' + error.message + ')');
    }

    // Results shown before are not this query's, so they go; the next search asks for the files again.
    function failed(error) {
      found = [];
      shown = 0;
      results.textContent = '';
      more.hidden = true;
      status.textContent = 'The search index could not be loaded (' + error.message + '). Change the search to try again.';
    }

    // A collection's result leads to the entry the query found, and shows its text.
    function cardElement(card, terms, facets) {
      var item = document.createElement('li'), link = document.createElement('a'), marked = false;
      var entry = entryOf(card, terms, facets);
      item.className = 'result';
      if (card.thumbnail) {
        var image = document.createElement('img');
        image.src = form.getAttribute('data-base') + card.thumbnail;
        image.alt = '';
        image.loading = 'lazy';
        image.className = 'result-thumbnail';
        item.appendChild(image);
      }
      link.href = form.getAttribute('data-base') + card.path + (entry >= 0 ? '#entry-' + entry : '');
      marked = markInto(link, card.title, terms) || marked;
      item.appendChild(link);
      var kindLabel = span('card-kind', ' ');
      marked = markInto(kindLabel, card.kind.singular, terms) || marked;
      item.appendChild(kindLabel);
      var figures = card.figures.concat(card.facets ? [card.facets] : []);
      if (figures.length) item.appendChild(paragraph('result-figures', figures.join(' · ')));
      var summary = paragraph('result-summary', '');
      var summaryText = entry >= 0 ? card.entries[entry][0] : card.summary;
      marked = markInto(summary, summaryText, terms) || marked;
      var elsewhere = terms.length && !marked && entry >= 0 ? entryElsewhere(card.entries[entry], terms) : '';
      if (elsewhere) {
        var where = span('result-elsewhere', (summaryText ? ' \u2014 ' : ''));
        marked = markInto(where, elsewhere, terms);
        summary.appendChild(where);
      }
      if (terms.length && !marked) summary.appendChild(span('result-elsewhere', (summaryText ? ' ' : '') + '(matched in other fields)'));
      item.appendChild(summary);
      return item;
    }

    function span(className, text) {
      var piece = document.createElement('span');
      piece.className = className;
      piece.textContent = text;
      return piece;
    }

    function paragraph(className, text) {
      var piece = document.createElement('p');
      piece.className = className;
      piece.textContent = text;
      return piece;
    }

    // Appends `text` to `parent` with the words a query term matches in <mark>; says whether any did.
    function markInto(parent, text, terms) {
      var any = false, at = 0, pattern = /[\p{L}\p{N}]+/gu, match;
      while ((match = pattern.exec(text)) !== null) {
        var folded = engine.words(match[0]);
        var hit = terms.some(function (term) {
          return folded.some(function (word) { return engine.matchesTerm(word, term); });
        });
        if (!hit) continue;
        parent.appendChild(document.createTextNode(text.slice(at, match.index)));
        var mark = document.createElement('mark');
        mark.textContent = match[0];
        parent.appendChild(mark);
        at = match.index + match[0].length;
        any = true;
      }
      parent.appendChild(document.createTextNode(text.slice(at)));
      return any;
    }

    // Until the index's first file has loaded, the words asked for stay in the box, the links to browse
    // without search stay shown, and a change to the search asks for the file again.
    words.value = new URLSearchParams(location.search).get('q') || '';
    function retry(event) {
      event.preventDefault();
      form.removeEventListener('input', retry);
      form.removeEventListener('submit', retry);
      status.textContent = 'Loading the index…';
      start();
    }
    function start() {
      search.meta().then(ready, function (error) {
        failed(error);
        element('search-browse').hidden = false;
        form.addEventListener('input', retry);
        form.addEventListener('submit', retry);
      });
    }
    start();

    function ready(loaded) {
      meta = loaded;
      element('search-browse').hidden = true;
      meta.kinds.forEach(function (kind) { kindSelect.appendChild(option(kind.name, kind.title)); });
      // The words in the box stand: the address's, unless the visitor typed others while the index loaded
      // (or failed to, and the typing asked for it again); then the address takes them.
      var typed = words.value, asked = new URLSearchParams(location.search).get('q') || '';
      fromAddress();
      words.value = typed;
      history.replaceState({}, '', typed === asked ? location.href : address());
      form.addEventListener('input', function (event) {
        // Another kind's range is another field (euro an hour, euro a day): its From and To start empty.
        if (event.target === kindSelect) {
          minInput.value = maxInput.value = '';
          showKind(null);
        }
        remember(event.target);
        run();
      });
      form.addEventListener('submit', function (event) { event.preventDefault(); run(); });
      more.addEventListener('click', function () { showMore(latest, query(), true).catch(failed); });
      window.addEventListener('popstate', function () { fromAddress(); typedIn = null; run(); });
      run();
    }
  }

  var engine = { fold: fold, words: words, queryTerms: queryTerms, matchesTerm: matchesTerm, entryOf: entryOf, entryElsewhere: entryElsewhere, editDistance: editDistance, Search: Search };
  if (typeof module === 'object' && module.exports) { module.exports = engine; return; }
  if (typeof document === 'undefined') return;
  window.NoticeboardSearch = engine;
  startPage(engine);
})();
