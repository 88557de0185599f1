import type { Faker, LocaleDefinition, Randomizer } from '@faker-js/faker';
import { faker as enUsFaker } from '@faker-js/faker/locale/en_US';
import type { JsonObject, Rng } from '@autoforge/core';
import { idReference, words } from '../naming.js';
import type { Meaning } from './meaning.js';
import { meaningOf } from './meaning.js';

// A private faker whose every random choice is taken from the `Rng` of the current draw (its
// `randomizer`), so a value depends only on the stream it was given (same seed, same bytes) and
// no Mersenne Twister is reseeded per value. Draws are synchronous: nothing can come between
// setting the stream and drawing from it.
let current: Rng | undefined;
const randomizer: Randomizer = {
  next: () => {
    if (!current) throw new Error('env-synth: values: faker drawn outside a seeded draw');
    return current.float();
  },
  seed: () => undefined,
};
type FakerClass = new (options: { locale: LocaleDefinition; randomizer: Randomizer }) => Faker;
const privateFaker = new (enUsFaker.constructor as FakerClass)({ locale: enUsFaker.rawDefinitions, randomizer });

/** The private faker instance, drawing from `rng` until the next call. */
export function seededFaker(rng: Rng): Faker {
  current = rng;
  return privateFaker;
}

/** What a realistic draw knows: the field, its record so far and the record's entity. */
export interface DrawContext {
  rng: Rng;
  name: string;
  entity?: string | undefined;
  record?: JsonObject | undefined;
}

const REASONS = [
  'Changed my mind',
  'Found a better price elsewhere',
  'Ordered the wrong size',
  'Item arrived damaged',
  'No longer needed',
  'Schedule conflict',
  'Duplicate request',
  'Delivery took too long',
  'Plans changed',
  'Not as described',
  'Billing error',
  'Requested by the customer',
];
const STATUSES = ['active', 'pending', 'completed', 'open', 'confirmed'];
const TIERS = ['standard', 'basic', 'premium', 'express', 'economy', 'business'];
const LABELS = ['bug', 'enhancement', 'documentation', 'question', 'urgent', 'backend', 'frontend', 'design', 'security', 'performance'];
const GENDERS = ['female', 'male', 'non-binary'];
const LANGUAGES = ['en', 'es', 'fr', 'de', 'it', 'pt', 'ja', 'zh', 'ko', 'nl'];
const COUNTRY_DEFAULT = 'United States';

function capitalize(s: string): string {
  return s.charAt(0).toUpperCase() + s.slice(1);
}

function ascii(s: string): string {
  return s
    .normalize('NFD')
    .replace(/[^A-Za-z]/g, '')
    .toLowerCase();
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/** The person a record describes, read from the name fields already in it (`first_name`, `name`). */
export function personOf(record: JsonObject | undefined, entity: string | undefined): { first?: string; last?: string } {
  const out: { first?: string; last?: string } = {};
  if (!record) return out;
  for (const [k, v] of Object.entries(record)) {
    if (typeof v !== 'string' || v.length === 0) continue;
    const m = meaningOf(k, entity);
    if (m === 'first_name') out.first = v;
    else if (m === 'last_name') out.last = v;
    else if (m === 'full_name' && out.first === undefined) {
      const parts = v.split(/\s+/);
      if (parts.length >= 2) [out.first, out.last] = [parts[0] as string, parts[parts.length - 1] as string];
    }
  }
  if (out.first === undefined || out.last === undefined) {
    // A record keyed by `mia_garcia7` or `mia.garcia@example.com` is Mia Garcia's.
    for (const [k, v] of Object.entries(record)) {
      const m = meaningOf(k, entity);
      if (typeof v !== 'string' || (m !== 'username' && m !== 'email')) continue;
      const parts = /^([a-z]{2,})[._]([a-z]{2,})\d*(@|$)/.exec(v);
      if (parts) return { first: out.first ?? capitalize(parts[1] as string), last: out.last ?? capitalize(parts[2] as string) };
    }
  }
  return out;
}

function person(f: Faker, d: DrawContext): { first: string; last: string } {
  const known = personOf(d.record, d.entity);
  return { first: known.first ?? f.person.firstName(), last: known.last ?? f.person.lastName() };
}

function iso(rng: Rng, fromMs: number, toMs: number): string {
  const minutes = rng.int(0, Math.floor((toMs - fromMs) / 60000));
  return new Date(fromMs + minutes * 60000).toISOString();
}

const Y2024 = Date.UTC(2024, 0, 1);
const Y2026 = Date.UTC(2026, 0, 1);

/** A date-time (`2024-05-15T23:22:00Z`) within 2024–2025. */
export function dateTimeValue(rng: Rng): string {
  return iso(rng, Y2024, Y2026).replace(/\.000Z$/, 'Z');
}

/** A date (`2024-05-15`) within 2024–2025. */
export function dateValue(rng: Rng): string {
  return dateTimeValue(rng).slice(0, 10);
}

/** A time of day on the quarter hour (`14:45:00`). */
export function timeValue(rng: Rng): string {
  return `${pad(rng.int(7, 20), 2)}:${pad(rng.int(0, 3) * 15, 2)}:00`;
}

function sentence(s: string): string {
  const t = capitalize(s.trim());
  return /[.!?]$/.test(t) ? t : `${t}.`;
}

function idLike(d: DrawContext): string {
  const ref = idReference(words(d.name).join('_'));
  const noun = ref?.noun || words(d.entity ?? '').join('_') || 'ref';
  return `${noun}_${pad(d.rng.int(0, 999999), 6)}`;
}

/**
 * A realistic string for a field meaning, drawn with a seeded faker: people's names and
 * emails consistent with the record (`mia.garcia@example.com` for Mia Garcia), phone numbers,
 * addresses, companies, products, dates, statuses, short sentences for free text, and so on.
 */
export function realisticString(meaning: Meaning, d: DrawContext): string {
  const fk = (): Faker => seededFaker(d.rng);
  switch (meaning) {
    // A record with two first-name fields (`first_name`, `firstName`) names one person.
    case 'first_name':
      return personOf(d.record, d.entity).first ?? fk().person.firstName();
    case 'last_name':
      return personOf(d.record, d.entity).last ?? fk().person.lastName();
    case 'full_name': {
      const p = person(fk(), d);
      return `${p.first} ${p.last}`;
    }
    case 'username': {
      const p = person(fk(), d);
      return `${ascii(p.first)}_${ascii(p.last)}${d.rng.bool(0.5) ? d.rng.int(1, 99) : ''}`;
    }
    case 'email': {
      const p = person(fk(), d);
      return `${ascii(p.first)}.${ascii(p.last)}@example.com`;
    }
    case 'phone':
      return fk().phone.number({ style: 'national' });
    case 'street':
      return fk().location.streetAddress();
    case 'address2':
      // USPS abbreviations (`Apt. 4`, `Ste. 499`), never a bare `Suite 499` that reads like a placeholder.
      return fk().location.secondaryAddress().replace(/^Suite /, 'Ste. ');
    case 'city':
      return fk().location.city();
    case 'state':
      return fk().location.state({ abbreviated: true });
    case 'zip':
      return fk().location.zipCode('#####');
    case 'country':
      return d.rng.bool(0.7) ? COUNTRY_DEFAULT : fk().location.country();
    case 'country_code':
      return fk().location.countryCode('alpha-2');
    case 'company':
      return fk().company.name();
    case 'product':
      return fk().commerce.productName();
    case 'pet_name':
      return fk().animal.petName();
    case 'title':
      return /^(book|publication|novel)$/.test(d.entity ?? '') ? fk().book.title() : capitalize(`${fk().hacker.verb()} the ${fk().hacker.adjective()} ${fk().hacker.noun()}`);
    case 'birth_date':
      return iso(d.rng, Date.UTC(1950, 0, 1), Date.UTC(2005, 0, 1)).slice(0, 10);
    case 'date':
      return dateValue(d.rng);
    case 'date_time':
      return dateTimeValue(d.rng);
    case 'time':
      return timeValue(d.rng).slice(0, 5);
    case 'status':
      return d.rng.pick(STATUSES);
    case 'color':
      return fk().color.human();
    case 'reason':
      return d.rng.pick(REASONS);
    case 'description':
      return /^(product|item|variant|listing)$/.test(d.entity ?? '') ? fk().commerce.productDescription() : sentence(fk().company.catchPhrase());
    case 'comment':
    case 'message':
      return sentence(fk().hacker.phrase());
    case 'url':
      return `https://${fk().internet.domainName()}/${fk().helpers.slugify(fk().word.noun()).toLowerCase()}`;
    case 'image_url':
      return `https://images.example.com/${fk().string.alphanumeric({ length: 10, casing: 'lower' })}.jpg`;
    case 'domain':
      return fk().internet.domainName();
    case 'ip':
      return fk().internet.ipv4();
    case 'tag':
      return fk().word.noun().toLowerCase();
    case 'label':
      return d.rng.pick(LABELS);
    case 'category':
      return /(type|kind|class|tier|plan|level)$/.test(words(d.name).join('_')) ? d.rng.pick(TIERS) : fk().commerce.department();
    case 'currency':
      return d.rng.bool(0.6) ? 'USD' : fk().finance.currencyCode();
    case 'symbol':
      return fk().string.alpha({ length: { min: 2, max: 4 }, casing: 'upper' });
    case 'card_number':
      return fk().finance.creditCardNumber('4##############L');
    case 'digits':
      return fk().string.numeric(Math.min(12, Number(/(\d+)/.exec(words(d.name).join('_'))?.[1] ?? 4)));
    case 'cvv':
      return fk().finance.creditCardCVV();
    case 'account_number':
      return fk().finance.accountNumber(10);
    case 'isbn':
      return fk().commerce.isbn({ variant: 13, separator: '-' });
    case 'sku':
      return `${fk().string.alpha({ length: 3, casing: 'upper' })}-${fk().string.numeric(5)}`;
    case 'slug':
      return fk().helpers.slugify(`${fk().word.adjective()} ${fk().word.noun()}`).toLowerCase();
    case 'uuid':
      return fk().string.uuid();
    case 'password':
      return fk().internet.password({ length: 14 });
    case 'path':
      return `/home/${ascii(fk().person.firstName())}/${fk().system.fileName()}`;
    case 'file_name':
      return fk().system.commonFileName();
    case 'language':
      return d.rng.pick(LANGUAGES);
    case 'airport':
      return fk().airline.airport().iataCode;
    case 'airline':
      return fk().airline.airline().name;
    case 'flight_number':
      return `${fk().airline.airline().iataCode}${fk().airline.flightNumber({ length: { min: 3, max: 4 } })}`;
    case 'gender':
      return d.rng.pick(GENDERS);
    case 'job_title':
      return fk().person.jobTitle();
    case 'department':
      return fk().commerce.department();
    case 'id_ref':
    case 'integer_id':
      return idLike(d);
    case 'name':
      return `${capitalize(fk().word.adjective())} ${capitalize(fk().word.noun())}`;
    case 'price':
    case 'quantity':
    case 'rating':
    case 'percent':
    case 'age':
    case 'year':
    case 'latitude':
    case 'longitude':
    case 'duration':
      return String(numericValue(meaning, d.rng, { integer: meaning !== 'price' }));
    case 'word':
      return fk().word.noun();
  }
}

/** A plausible span (and decimals) for numbers of a meaning. */
export function numericSpan(meaning: Meaning, integer: boolean): { lo: number; hi: number; decimals: number } {
  switch (meaning) {
    case 'price':
      return { lo: 5, hi: 500, decimals: integer ? 0 : 2 };
    case 'quantity':
      return { lo: 1, hi: 10, decimals: 0 };
    case 'rating':
      return { lo: 1, hi: 5, decimals: integer ? 0 : 1 };
    case 'percent':
      return { lo: 0, hi: 100, decimals: integer ? 0 : 1 };
    case 'age':
      return { lo: 18, hi: 80, decimals: 0 };
    case 'year':
      return { lo: 2015, hi: 2025, decimals: 0 };
    case 'latitude':
      return { lo: -60, hi: 60, decimals: 4 };
    case 'longitude':
      return { lo: -150, hi: 150, decimals: 4 };
    case 'duration':
      return { lo: 1, hi: 120, decimals: 0 };
    case 'id_ref':
    case 'integer_id':
      return { lo: 1, hi: 9999, decimals: 0 };
    default:
      return integer ? { lo: 1, hi: 100, decimals: 0 } : { lo: 1, hi: 1000, decimals: 2 };
  }
}

/** A number in the meaning's span (used where no schema bounds apply). */
export function numericValue(meaning: Meaning, rng: Rng, options: { integer: boolean }): number {
  const { lo, hi, decimals } = numericSpan(meaning, options.integer);
  const scale = 10 ** decimals;
  return rng.int(Math.round(lo * scale), Math.round(hi * scale)) / scale;
}
