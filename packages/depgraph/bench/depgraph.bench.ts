// Figures for the README: graph build time on real tool sets and walk throughput.
import { bench, describe } from 'vitest';
import { buildDependencyGraph } from '../src/build-dependency-graph.js';
import { fromJSON, toJSON } from '../src/graph-json.js';
import { randomWalks } from '../src/random-walks.js';
import { otaTools, retailTools } from '../test/test-support.js';

const retail = await retailTools();
const ota = await otaTools();
const retailGraph = buildDependencyGraph(retail);
const otaGraph = buildDependencyGraph(ota);
const retailJson = JSON.stringify(toJSON(retailGraph));

describe('buildDependencyGraph', () => {
  bench(`tau-bench retail (${retail.length} tools)`, () => {
    buildDependencyGraph(retail);
  });
  bench(`VitaBench OTA (${ota.length} tools)`, () => {
    buildDependencyGraph(ota);
  });
});

describe('randomWalks: 100 walks of 2–5 tools per run', () => {
  let seed = 0;
  bench(`tau-bench retail (${retailGraph.size} edges)`, () => {
    randomWalks(retailGraph, { seed: seed++, count: 100, minLength: 2, maxLength: 5 });
  });
  bench(`VitaBench OTA (${otaGraph.size} edges)`, () => {
    randomWalks(otaGraph, { seed: seed++, count: 100, minLength: 2, maxLength: 5 });
  });
  bench('tau-bench retail, requireWrite + maxWrites 1', () => {
    randomWalks(retailGraph, { seed: seed++, count: 100, minLength: 3, maxLength: 6, requireWrite: true, maxWrites: 1 });
  });
});

describe('graph.json', () => {
  bench('toJSON + JSON.stringify (tau-bench retail)', () => {
    JSON.stringify(toJSON(retailGraph));
  });
  bench('JSON.parse + fromJSON (tau-bench retail)', () => {
    fromJSON(JSON.parse(retailJson));
  });
});
