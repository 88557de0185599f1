import { words } from '../naming.js';

/**
 * What a field holds, read from its name (and the record's entity): the kind of realistic value
 * {@link valueFor} draws for it. `text` kinds are short English sentences; `word` is the
 * fallback for names that say nothing (one or two lower-case words).
 */
export type Meaning =
  | 'first_name'
  | 'last_name'
  | 'full_name'
  | 'username'
  | 'email'
  | 'phone'
  | 'street'
  | 'address2'
  | 'city'
  | 'state'
  | 'zip'
  | 'country'
  | 'country_code'
  | 'company'
  | 'product'
  | 'pet_name'
  | 'title'
  | 'price'
  | 'quantity'
  | 'rating'
  | 'percent'
  | 'age'
  | 'year'
  | 'latitude'
  | 'longitude'
  | 'duration'
  | 'birth_date'
  | 'date'
  | 'date_time'
  | 'time'
  | 'status'
  | 'color'
  | 'reason'
  | 'description'
  | 'comment'
  | 'message'
  | 'url'
  | 'image_url'
  | 'domain'
  | 'ip'
  | 'tag'
  | 'category'
  | 'currency'
  | 'symbol'
  | 'card_number'
  | 'cvv'
  | 'account_number'
  | 'isbn'
  | 'sku'
  | 'slug'
  | 'uuid'
  | 'password'
  | 'path'
  | 'file_name'
  | 'language'
  | 'airport'
  | 'airline'
  | 'flight_number'
  | 'gender'
  | 'job_title'
  | 'department'
  | 'label'
  | 'digits'
  | 'id_ref'
  | 'integer_id'
  | 'name'
  | 'word';

// Nouns of records that are people: their `name` is a person's name.
const PERSON_NOUNS =
  /^(user|customer|passenger|employee|member|person|people|guest|patient|student|driver|contact|author|client|owner|traveler|traveller|profile|agent|staff|buyer|seller|recipient|sender|assignee|reviewer|friend|follower|doctor|teacher|player|participant|attendee|candidate|applicant|tenant|subscriber|holder|manager|admin|operator|worker|host|speaker|artist|creator|requester|reporter|commenter|beneficiary|payee|cardholder)$/;
const COMPANY_NOUNS = /^(company|organization|organisation|org|employer|business|vendor|supplier|manufacturer|brand|publisher|merchant|store|shop|firm|agency|bank|provider|carrier|restaurant|hotel|venue|team)$/;
const PRODUCT_NOUNS = /^(product|item|variant|good|article|listing|offer|merchandise|sku|model|device)$/;

/** True when records of this noun are people (`user`, `customer`, `passenger`). */
export function isPersonNoun(noun: string | undefined): boolean {
  if (!noun) return false;
  const w = words(noun);
  return PERSON_NOUNS.test(w[w.length - 1] ?? '');
}

/**
 * The meaning of a field by its name (`first_name`, `customerEmail`, `unit_price`) and, for
 * bare `name`/`title`, by the entity of its record (`user.name` is a person, `product.name` a
 * product name).
 */
export function meaningOf(fieldName: string, entity?: string): Meaning {
  const key = `${fieldName}\u0000${entity ?? ''}`;
  let m = cache.get(key);
  if (m === undefined) {
    if (cache.size > 5000) cache.clear();
    m = readMeaning(fieldName, entity);
    cache.set(key, m);
  }
  return m;
}
const cache = new Map<string, Meaning>();

function readMeaning(fieldName: string, entity: string | undefined): Meaning {
  // One of a pair or a numbered series (`cityA`, `city_b`, `date2`) means what its stem means.
  const pair = /^(.+?)_?([A-Z]|_[a-z]|_?[1-9])$/.exec(fieldName);
  if (pair && !/(address|line|addr)$/i.test(pair[1] as string)) {
    const stem = readMeaning(pair[1] as string, entity);
    if (stem !== 'word') return stem;
  }
  const w = words(fieldName);
  const n = w.join('_');
  const last = w[w.length - 1] ?? '';
  const ent = entity ? words(entity) : [];
  const entLast = ent[ent.length - 1] ?? '';
  const head = w.length > 1 ? (w[w.length - 2] ?? '') : '';

  if (/(^|_)(first_?name|given_name|fname|forename)$/.test(n)) return 'first_name';
  if (/(^|_)(last_?name|surname|family_name|lname)$/.test(n)) return 'last_name';
  if (/(^|_)(user_?name|login|handle|screen_name|nickname|nick)$|^owner$/.test(n)) return 'username';
  if (/(^|_)e?mail(_address)?$|(^|_)emails?$/.test(n)) return 'email';
  if (/(^|_)(phone|phone_number|mobile|mobile_number|telephone|tel|cell|cellphone|fax|phone_no|contact_number)s?$/.test(n)) return 'phone';
  if (/(^|_)(address2|address_line_?2|line_?2|apartment|suite|unit)$/.test(n)) return 'address2';
  if (/(^|_)(address1?|address_line_?1?|street|street_address|line_?1|street_line)$/.test(n)) return 'street';
  if (/(^|_)(city|town)(_name)?$/.test(n)) return 'city';
  if (/(^|_)(state|province|region|county)(_code)?$/.test(n) && !/status/.test(n) && head !== 'order') {
    return 'state';
  }
  if (/(^|_)(zip|zip_?code|postal_?code|postcode|post_code)$/.test(n)) return 'zip';
  if (/(^|_)country_code$/.test(n)) return 'country_code';
  if (/(^|_)(country|nation|nationality)$/.test(n)) return 'country';
  if (/(^|_)(dob|date_of_birth|birth_?date|birthday)$/.test(n)) return 'birth_date';
  if (/(^|_)(card_number|card_no|credit_card|cc_number|pan)$/.test(n)) return 'card_number';
  // `last_4_digits`, `last4`, `pin`: a few digits (the count the name gives, else 4).
  if (/(^|_)(last_?\d+(_digits)?|\d+_digits|digits|pin|pin_code)$/.test(n)) return 'digits';
  if (/(^|_)(cvv|cvc|security_code)$/.test(n)) return 'cvv';
  if (/(^|_)(account_number|iban|routing_number|bank_account)$/.test(n)) return 'account_number';
  if (/(^|_)isbn(_?1[03])?$/.test(n)) return 'isbn';
  if (/(^|_)(sku|upc|barcode|ean)$/.test(n)) return 'sku';
  if (/(^|_)(slug|repo|repository|repo_name|package_name|project_key)$/.test(n)) return 'slug';
  if (/(^|_)(uuid|guid)$/.test(n)) return 'uuid';
  if (/(^|_)(password|passwd|pass|secret|token|api_key)$/.test(n)) return 'password';
  if (/(^|_)(ticker|symbol|stock|stock_symbol|ticker_symbol)s?$/.test(n)) return 'symbol';
  if (/(^|_)(currency|currency_code)$/.test(n)) return 'currency';
  if (/(^|_)(flight_number|flight_no|flight)$/.test(n)) return 'flight_number';
  if (/(^|_)(airline|carrier)(_name)?$/.test(n)) return 'airline';
  if (/(^|_)(airport|iata|origin|destination|departure_airport|arrival_airport|from_airport|to_airport)(_code)?$/.test(n)) return 'airport';
  if (/(^|_)(lat|latitude)$/.test(n)) return 'latitude';
  if (/(^|_)(lng|lon|long|longitude)$/.test(n)) return 'longitude';
  if (/(^|_)(avatar|image|photo|picture|thumbnail|icon|logo)(_url|_uri|_link|_urls)?s?$/.test(n)) return 'image_url';
  if (/(^|_)(url|uri|link|website|homepage|href|site|webpage|html_url|endpoint)s?$/.test(n)) return 'url';
  if (/(^|_)(domain|hostname|host)$/.test(n)) return 'domain';
  if (/(^|_)(ip|ip_address|ipv4)$/.test(n)) return 'ip';
  if (/(^|_)(language|lang|locale)$/.test(n)) return 'language';
  if (/(^|_)(gender|sex)$/.test(n)) return 'gender';
  if (/(^|_)(job_title|occupation|position|role_title|profession)$/.test(n)) return 'job_title';
  if (/(^|_)(department|division)$/.test(n)) return 'department';
  if (/(^|_)(colou?r|colou?rs|hue|shade)$/.test(n)) return 'color';
  if (/(^|_)(status|state)$/.test(n)) return 'status';
  if (/(^|_)(reason|cause|motive)s?$/.test(n)) return 'reason';
  if (/(^|_)(description|summary|details|bio|about|overview|abstract|desc)$/.test(n)) return 'description';
  if (/(^|_)(comment|comments|note|notes|remark|remarks|feedback|review|review_text|observations?|memo|rationale|justification|explanation)$/.test(n)) return 'comment';
  if (/(^|_)(message|content|text|body|msg|caption|post|tweet|reply|answer|question|prompt|subject)$/.test(n)) return 'message';
  if (/(^|_)(tag|tags|keyword|keywords|hashtag|hashtags|topic|topics)$/.test(n)) return 'tag';
  if (/(^|_)(label|labels)$/.test(n)) return 'label';
  if (/(^|_)(category|categories|type|kind|genre|class|group|segment|tier|plan|level)$/.test(n)) return 'category';
  if (/(^|_)(file_?name|filename|attachment)$/.test(n)) return 'file_name';
  if (/(^|_)(path|file_path|filepath|directory|dir|folder)$/.test(n)) return 'path';
  if (/(^|_)(company|company_name|organization|organisation|employer|business|vendor|supplier|manufacturer|brand|publisher|merchant|store_name|shop_name)$/.test(n)) return 'company';
  if (/(^|_)(product|product_name|item_name|product_title)$/.test(n)) return 'product';
  if (/(^|_)(pet_name)$/.test(n)) return 'pet_name';
  if (/(^|_)(full_?name|display_name|real_name|contact_name|customer_name|passenger_name|holder_name|owner_name|author_name|recipient_name|sender_name|assignee|reporter|author|owner|recipient|sender|cardholder|cardholder_name|guest_name|patient_name|user_full_name)$/.test(n)) {
    return 'full_name';
  }
  if (/(^|_)(date_time|datetime|timestamp|created|updated|modified|deleted)$|_at$|_on$|_time$|^time_/.test(n) && !/^(time|duration)$/.test(n)) {
    return last === 'time' && w.length > 1 && !/(date|at|stamp)/.test(n) && /(start|end|open|close|pickup|departure|arrival|meeting|appointment)/.test(n) ? 'time' : 'date_time';
  }
  if (/(^|_)time$/.test(n)) return 'time';
  if (/(^|_)(date|day|deadline|due|due_date|expiry|expiration|expires|start_date|end_date|checkin|checkout|check_in|check_out)$|_date$|^date_/.test(n)) return 'date';
  if (/(^|_)(duration|minutes|hours|seconds|days|nights|weeks|months|mins|secs|timeout|ttl)$/.test(n)) return 'duration';
  if (/(price|amount|cost|total|balance|fee|fare|salary|payment|refund|charge|subtotal|tax|tip|budget|revenue|income|deposit|withdrawal|credit|debit|wage|value_usd|limit_amount)/.test(n)) return 'price';
  if (/(rating|score|stars?)$/.test(n)) return 'rating';
  if (/(percent|percentage|ratio|discount|rate)$/.test(n)) return 'percent';
  if (/(^|_)age$/.test(n)) return 'age';
  if (/(^|_)year$/.test(n)) return 'year';
  if (/(count|quantity|qty|num|number_of|seats|baggages|bags|guests|people|passengers|units|stock_level|inventory|capacity|size|votes|likes|views)s?$/.test(n)) return 'quantity';
  if (/^(id|key)$/.test(n) || /(_id|_ids|_key|_number|_code|_no|_ref|_uuid)$/.test(n) || /[a-z](id|ids)$/.test(n)) return 'id_ref';
  if (/(^|_)(title|headline|heading)$/.test(n)) return 'title';
  if (/(^|_)name$/.test(n)) {
    // `customer_name` names a customer; a bare or qualified `name` (`new_name`) names its record.
    for (const owner of [head, entLast]) {
      if (!owner) continue;
      if (isPersonNoun(owner)) return 'full_name';
      if (COMPANY_NOUNS.test(owner)) return 'company';
      if (PRODUCT_NOUNS.test(owner)) return 'product';
      if (/^(pet|animal|dog|cat)$/.test(owner)) return 'pet_name';
      if (/^(city|town)$/.test(owner)) return 'city';
      if (/^(country)$/.test(owner)) return 'country';
      if (/^(file|document|attachment)$/.test(owner)) return 'file_name';
      if (/^(tag|label|topic)$/.test(owner)) return 'label';
      if (/^(category|department|genre)$/.test(owner)) return 'category';
    }
    return 'name';
  }
  return 'word';
}
