/** The enquiry's fields and bounds, the body reader, and the email's escaping, as tables. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readEnquiryBody, maxBodyBytes } from '../../service/bookings/body.ts';
import { composeEnquiryEmail, escapeHtml } from '../../service/bookings/email.ts';
import {
  checkPhone,
  cleanText,
  fieldMessages,
  fieldPatterns,
  groupSizeCap,
  tooLongMessage,
  type EnquiryField,
} from '../../service/bookings/enquiry.ts';
import { checkEnquiry } from '../../service/bookings/enquiry-schema.ts';
import type { StoredEnquiry } from '../../service/bookings/store.ts';
import { loadCatalogue } from '../helpers/content.ts';

const catalogue = loadCatalogue();
const valid = { tripSlug: 'sample-trek', name: 'Asha Rao', phone: '+91 98765 43210', groupSize: 4 };

describe('groupSizeCap', () => {
  it.each([
    ['Up to 12 trekkers', 12],
    ['Up to 12', 12],
    ['Up to 8 climbers, one guide for every two climbers on summit day', 8],
    ['Up to 8 climbers, 1 guide to 2 climbers on summit day', 8],
    ['Maximum 6', 6],
    ['10 people', 10],
    ['Small groups', 12],
    [undefined, 12],
  ])('%s → %i', (text, cap) => expect(groupSizeCap(text)).toBe(cap));
});

describe('checkPhone', () => {
  it.each([
    ['+91 98765 43210', true],
    ['9876543210', true],
    ['098765-43210', true],
    ['+1 (415) 555-0132', true],
    ['+44 20 7946 0958', true],
    ['+977-1-4412345', true],
    ['  +91 98765 43210  ', true],
    // What the message says is allowed: digits, spaces, dashes, dots, brackets and a + before the first digit.
    ['(+91) 98765 43210', true],
    ['(+91)-98765-43210', true],
    ['+91 98765.43210', true],
    ['(0172) 274 0000', true],
    ['+91 (98765) 43210+', false],
    ['1234567', false], // 7 digits
    ['+1234567890123456', false], // 16 digits
    ['98765 ext 43210', false],
    ['++91 9876543210', false],
    ['91+9876543210', false],
    ['', false],
  ])('%j valid: %s', (phone, ok) => expect(checkPhone(phone) !== null).toBe(ok));
});

describe('cleanText', () => {
  it('trims, collapses whitespace and drops control characters on one line', () => {
    expect(cleanText('  Asha\u0000 \t Rao\r\n ')).toBe('Asha Rao');
  });
  it('keeps line breaks in a message and normalises them to \\n', () => {
    expect(cleanText('Line one\r\nLine two\u0007\n', true)).toBe('Line one\nLine two');
  });
  it('applies Unicode NFC', () => {
    expect(cleanText('Re\u0301nuka')).toBe('Rénuka');
  });
});

type Row = [label: string, change: Record<string, unknown>, field: EnquiryField | null];

const rows: Row[] = [
  ['a minimal valid enquiry', {}, null],
  ['all optional fields', { message: 'Two of us are vegetarian.', preferredDeparture: 'October 2027' }, null],
  [
    "groupSize as a digit string (JSON takes a number; the form reader converts the form's text)",
    { groupSize: '3' },
    'groupSize',
  ],
  ['groupSize at the cap', { groupSize: 12 }, null],
  ['a name of exactly 100 characters', { name: 'a'.repeat(100) }, null],
  ['a message of exactly 2000 characters', { message: 'm'.repeat(2000) }, null],
  ['null optional fields', { message: null, preferredDeparture: null }, null],
  ['unknown extra fields', { utm: 'ad', departureId: 'x' }, null],
  ['an email address', { email: 'asha.rao+trek@example.co.in' }, null],
  ['an empty email address (the form sends one)', { email: '' }, null],
  [
    'an email address of exactly 254 characters',
    { email: `${'a'.repeat(64)}@${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.in` },
    null,
  ],
  ['an email address without a domain', { email: 'asha@' }, 'email'],
  ['an email address with a space', { email: 'asha rao@example.com' }, 'email'],
  ['an email address over 254 characters', { email: `${'a'.repeat(250)}@example.com` }, 'email'],
  ['an email address that is not text', { email: ['asha@example.com'] }, 'email'],
  ['a phone number over 30 characters', { phone: '+91 98765 43210 or +91 98765 43211' }, 'phone'],
  ['missing tripSlug', { tripSlug: undefined }, 'tripSlug'],
  ['an unknown trip', { tripSlug: 'no-such-trip' }, 'tripSlug'],
  ['tripSlug not a string', { tripSlug: ['sample-trek'] }, 'tripSlug'],
  ['missing name', { name: undefined }, 'name'],
  ['a blank name', { name: '   ' }, 'name'],
  ['a name over 100 characters', { name: 'a'.repeat(101) }, 'name'],
  ['missing phone', { phone: undefined }, 'phone'],
  ['a phone with letters', { phone: 'call me' }, 'phone'],
  ['a phone too short', { phone: '12345' }, 'phone'],
  ['missing groupSize', { groupSize: undefined }, 'groupSize'],
  ['groupSize 0', { groupSize: 0 }, 'groupSize'],
  ['groupSize over the cap', { groupSize: 13 }, 'groupSize'],
  ['groupSize not whole', { groupSize: 2.5 }, 'groupSize'],
  ['groupSize negative', { groupSize: -1 }, 'groupSize'],
  ['groupSize as words', { groupSize: 'two' }, 'groupSize'],
  ['a message over 2000 characters', { message: 'm'.repeat(2001) }, 'message'],
  ['a message that is not text', { message: { text: 'hi' } }, 'message'],
  ['dates wanted over 100 characters', { preferredDeparture: 'd'.repeat(101) }, 'preferredDeparture'],
  ['dates wanted not text', { preferredDeparture: 20261012 }, 'preferredDeparture'],
  ['the honeypot filled in', { website: 'http://spam.example' }, 'website'],
];

describe('text that would display differently from what it is', () => {
  /** Bidirectional embeddings, overrides, isolates and marks: each reorders the text around it. */
  const directionControls = [
    '\u202A',
    '\u202B',
    '\u202C',
    '\u202D',
    '\u202E',
    '\u2066',
    '\u2067',
    '\u2068',
    '\u2069',
    '\u200E',
    '\u200F',
    '\u061C',
  ];
  /** Invisible characters with no meaning in a name, number or message. */
  const invisible = ['\u200B', '\u2060', '\u2061', '\uFEFF', '\u00AD', '\u180E', '\u{E0041}', '\u{E007F}'];
  const textFields = {
    tripSlug: 'sample-trek',
    name: 'Asha Rao',
    phone: '+91 98765 43210',
    preferredDeparture: 'October 2027',
    message: 'Two of us are vegetarian.',
  } as const;
  const insert = (text: string, at: number, char: string) => text.slice(0, at) + char + text.slice(at);

  it('refuses a direction control in any text field, naming the field and the character', () => {
    const result = checkEnquiry(
      { ...valid, name: 'Asha \u202Eoa\u202C R', message: 'Call \u2067after 6\u2069 please' },
      catalogue,
    );
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.field)).toEqual(['name', 'message']);
    expect(result.errors[0]!.message).toBe(
      'Your name contains an invisible character (U+202E) that changes the direction of the text around it, so it would not read as typed. Please type it again without that character.',
    );
    expect(result.errors[1]!.message).toContain('Your message contains an invisible character (U+2067)');
    // The refusal never repeats the text itself, which would display reversed in the answer too.
    expect(result.errors.map((e) => e.message).join(' ')).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/u);
  });

  it('refuses each direction control wherever it sits, and removes meaningless invisible characters', () => {
    const field = fc.constantFrom(...(Object.keys(textFields) as (keyof typeof textFields)[]));
    fc.assert(
      fc.property(field, fc.constantFrom(...directionControls), fc.nat(), (name, char, at) => {
        const result = checkEnquiry(
          { ...valid, ...textFields, [name]: insert(textFields[name], at % (textFields[name].length + 1), char) },
          catalogue,
        );
        expect(result.ok).toBe(false);
        if (!result.ok) expect(result.errors.map((e) => e.field)).toEqual([name]);
      }),
    );
    fc.assert(
      fc.property(
        field.filter((f) => f !== 'tripSlug'),
        fc.constantFrom(...invisible),
        fc.nat(),
        (name, char, at) => {
          const text = textFields[name];
          const position = 1 + (at % (text.length - 1));
          const result = checkEnquiry({ ...valid, ...textFields, [name]: insert(text, position, char) }, catalogue);
          expect(result).toMatchObject({ ok: true, enquiry: { [name]: text } });
        },
      ),
    );
  });

  it('keeps the joiners Indic scripts and emoji need', () => {
    const name = 'क्\u200Dष स्\u200Cत 👩\u200D👩\u200D👧';
    expect(checkEnquiry({ ...valid, name }, catalogue)).toMatchObject({ ok: true, enquiry: { name } });
  });
});

describe('checkEnquiry', () => {
  it.each(rows)('%s', (_label, change, field) => {
    const result = checkEnquiry({ ...valid, ...change }, catalogue);
    if (field === null) {
      expect(result).toMatchObject({ ok: true });
    } else {
      expect(result.ok).toBe(false);
      if (result.ok) return;
      expect(result.errors.map((e) => e.field)).toEqual([field]);
      expect(result.errors[0]?.message.length).toBeGreaterThan(10);
    }
  });

  it('reports every faulty field at once, each in its own sentence', () => {
    const result = checkEnquiry({ tripSlug: 'sample-trek', groupSize: 40 }, catalogue);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors.map((e) => e.field)).toEqual(['name', 'phone', 'groupSize']);
    expect(result.errors[2]?.message).toContain('1 to 12 for Fixture Trek');
  });

  it("uses the cap in the trip's published group size", () => {
    const capped = {
      ...catalogue,
      trips: catalogue.trips.map((t) =>
        t.trip.slug === 'sample-expedition'
          ? { ...t, trip: { ...t.trip, groupSize: 'Up to 8 climbers, 1 guide to 2 climbers on summit day' } }
          : t,
      ),
    };
    expect(checkEnquiry({ ...valid, tripSlug: 'sample-expedition', groupSize: 8 }, capped).ok).toBe(true);
    expect(checkEnquiry({ ...valid, tripSlug: 'sample-expedition', groupSize: 9 }, capped).ok).toBe(false);
  });

  it('refuses over-long text with the field, its limit and the length, never cutting it', () => {
    const result = checkEnquiry(
      { ...valid, name: 'N'.repeat(500), message: 'm'.repeat(2001), preferredDeparture: 'd'.repeat(150) },
      catalogue,
    );
    expect(result).toEqual({
      ok: false,
      errors: [
        { field: 'name', message: 'Your name can be at most 100 characters; it has 500. Please shorten it.' },
        {
          field: 'preferredDeparture',
          message: 'Dates wanted can be at most 100 characters; it has 150. Please shorten it.',
        },
        { field: 'message', message: 'Your message can be at most 2000 characters; it has 2001. Please shorten it.' },
      ],
    });
    // Characters, not UTF-16 units: 100 Devanagari letters or emoji are 100 characters.
    expect(checkEnquiry({ ...valid, name: '😀'.repeat(100) }, catalogue).ok).toBe(true);
    expect(tooLongMessage('email', '{n}')).toBe(
      'The email address can be at most 254 characters; it has {n}. Please shorten it.',
    );
  });

  it('normalises what it keeps', () => {
    const result = checkEnquiry(
      { ...valid, name: '  Asha \n Rao ', message: ' Hello\r\nthere \u0000', preferredDeparture: '  ' },
      catalogue,
    );
    expect(result).toEqual({
      ok: true,
      enquiry: {
        tripSlug: 'sample-trek',
        name: 'Asha Rao',
        phone: '+91 98765 43210',
        email: null,
        groupSize: 4,
        preferredDeparture: null,
        message: 'Hello\nthere',
      },
    });
  });
});

describe("the form's patterns, as a browser reads them", () => {
  // A browser matches `pattern` against the whole value, compiled with the `v` flag; an email
  // field's value has leading and trailing ASCII whitespace stripped first.
  const pattern = (field: keyof typeof fieldPatterns) => new RegExp(`^(?:${fieldPatterns[field]})$`, 'v');
  const browser = (field: keyof typeof fieldPatterns) => ({
    test: (value: string) =>
      pattern(field).test(field === 'email' ? value.replace(/^[\t\n\f\r ]+|[\t\n\f\r ]+$/g, '') : value),
  });
  const server = (field: keyof typeof fieldPatterns, value: string) => {
    const result = checkEnquiry({ ...valid, [field]: value }, catalogue);
    return result.ok || !result.errors.some((e) => e.field === field);
  };

  it('compile with the v flag, as Chromium compiles them (an invalid pattern is ignored)', () => {
    for (const field of Object.keys(fieldPatterns) as (keyof typeof fieldPatterns)[])
      expect(() => pattern(field), field).not.toThrow();
  });

  it.each([
    [
      'name',
      [
        'Asha Rao',
        '  Asha   Rao  ',
        'क्षत्रिय',
        'a'.repeat(100),
        `${'a'.repeat(50)}   ${'b'.repeat(49)}`,
        '😀'.repeat(100),
        '   ',
        'a'.repeat(101),
        '😀'.repeat(101),
      ],
    ],
    [
      'phone',
      [
        '+91 98765 43210',
        '(+91) 98765 43210',
        '098765-43210',
        '+1 (415) 555-0132',
        '  9876543210 ',
        'call me',
        '12345',
        '++91 9876543210',
        '+91 98765 43210 / 98765 43211 / 9',
        '1-2-3-4-5-6-7-8-9-0-1-2-3-4-5-6',
      ],
    ],
    [
      'email',
      [
        'asha@example.com',
        'asha.rao+trek@example.co.in',
        "o'neil@example.ie",
        'asha@',
        'asha@example',
        'asha rao@example.com',
        '.asha@example.com',
        `${'a'.repeat(250)}@example.com`,
      ],
    ],
    [
      'preferredDeparture',
      ['October 2027', '23 Sept 2027 to 27 Sept 2027', 'd'.repeat(100), ` ${'d'.repeat(100)} `, 'd'.repeat(101)],
    ],
  ] as const)('%s: the browser refuses what the server refuses, and takes what it takes', (field, values) => {
    for (const value of values) expect(browser(field).test(value), JSON.stringify(value)).toBe(server(field, value));
  });

  it('agree with the server on any one-line text of letters, digits, signs and spaces', () => {
    const char = fc.constantFrom(..."aZ09 +-.()@_'#/x", '\t', '\u00A0', 'क', '😀');
    const text = (max: number) => fc.array(char, { maxLength: max }).map((c) => c.join(''));
    fc.assert(
      fc.property(
        fc.constantFrom('name', 'phone', 'email', 'preferredDeparture' as const),
        fc.oneof(text(12), text(40), text(120), text(300)),
        (field, value) => {
          // An empty optional field is not checked by a browser; a required one is refused by `required`.
          if (value === '') return;
          expect(browser(field).test(value), `${field}: ${JSON.stringify(value)}`).toBe(server(field, value));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("say the server's own refusal when the browser shows its bubble", () => {
    expect(fieldMessages.phone.invalid).toContain('(+91) 98765 43210');
    expect(checkEnquiry({ ...valid, phone: 'call me' }, catalogue)).toMatchObject({
      ok: false,
      errors: [{ field: 'phone', message: fieldMessages.phone.invalid }],
    });
    expect(checkEnquiry({ ...valid, email: 'asha@example' }, catalogue)).toMatchObject({
      ok: false,
      errors: [{ field: 'email', message: fieldMessages.email.invalid }],
    });
  });
});

function post(body: BodyInit | null, contentType: string | null, headers: Record<string, string> = {}): Request {
  return new Request('http://127.0.0.1/api/bookings', {
    method: 'POST',
    body,
    headers: { ...(contentType ? { 'Content-Type': contentType } : {}), ...headers },
    ...(body instanceof ReadableStream ? { duplex: 'half' } : {}),
  });
}

describe('readEnquiryBody', () => {
  it('reads JSON, with or without a charset', async () => {
    expect(await readEnquiryBody(post(JSON.stringify(valid), 'application/json; charset=utf-8'))).toEqual({
      ok: true,
      format: 'json',
      fields: valid,
    });
  });

  it('reads a URL-encoded web form, its group size as the number JSON sends', async () => {
    const form = new URLSearchParams({ tripSlug: 'sample-trek', name: 'Asha Rao', groupSize: '2' }).toString();
    expect(await readEnquiryBody(post(form, 'application/x-www-form-urlencoded'))).toEqual({
      ok: true,
      format: 'form',
      fields: { tripSlug: 'sample-trek', name: 'Asha Rao', groupSize: 2 },
    });
  });

  it.each([
    ['no content type', '{}', null, /application\/json/],
    ['text/plain', '{}', 'text/plain', /application\/json/],
    ['multipart', '--x--', 'multipart/form-data; boundary=x', /application\/json/],
    ['malformed JSON', '{"name": ', 'application/json', /not valid JSON/],
    ['a JSON array', '[1, 2]', 'application/json', /one JSON object/],
    ['JSON null', 'null', 'application/json', /one JSON object/],
    ['invalid UTF-8', new Uint8Array([0x7b, 0xff, 0x7d]), 'application/json', /UTF-8/],
  ] as const)('refuses %s in plain language', async (_label, body, type, message) => {
    const result = await readEnquiryBody(post(body as BodyInit, type));
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.message).toMatch(message);
  });

  it('refuses a declared oversize body without reading it', async () => {
    const result = await readEnquiryBody(
      post('{}', 'application/json', { 'Content-Length': String(maxBodyBytes + 1) }),
    );
    expect(result).toMatchObject({ ok: false, message: expect.stringMatching(/too large.*16 KB/) });
  });

  it('stops reading an oversize streamed body at the cap', async () => {
    let pulled = 0;
    const chunk = new TextEncoder().encode('x'.repeat(4096));
    const endless = new ReadableStream<Uint8Array>({
      pull(controller) {
        pulled += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const result = await readEnquiryBody(post(endless, 'application/json'));
    expect(result).toMatchObject({ ok: false, message: expect.stringMatching(/too large/) });
    expect(pulled).toBeLessThanOrEqual(maxBodyBytes + 3 * chunk.byteLength);
  });
});

describe('the enquiry email', () => {
  const enquiry: StoredEnquiry = {
    id: 'enq-20261122-abcdefghij',
    tripSlug: 'sample-trek',
    trip: { name: 'Fixture Trek', url: 'https://example.test/treks/sample-trek' },
    name: '<script>alert("x")</script> & Co',
    phone: '+91 98765 43210',
    email: 'asha+<x>@example.com',
    groupSize: 3,
    preferredDeparture: '12 Oct 2026 to 20 Oct 2026',
    message: 'Line one\n<b>bold?</b>',
    callbackPromise: 'within one working day, between 9:00 and 19:00 India time',
    createdAt: new Date('2026-11-22T04:30:00Z'),
    deliveryState: 'pending',
    attempts: 0,
    lastAttemptAt: null,
    lastError: null,
    deliveredAt: null,
    deliveryRef: null,
    idempotencyKey: 'enquiry/enq-20261122-abcdefghij',
    handledAt: null,
    handledNote: null,
  };
  const email = composeEnquiryEmail(enquiry);

  it('names trip, dates wanted, group, contact and message in the text', () => {
    for (const part of [
      'Fixture Trek',
      'Dates wanted:',
      '12 Oct 2026 to 20 Oct 2026',
      '3 people',
      '+91 98765 43210',
      'asha+<x>@example.com',
      'Line one\n<b>bold?</b>',
      '22 Nov 2026',
      'IST',
      'The site told them a guide will call within one working day, between 9:00 and 19:00 India time.',
    ]) {
      expect(email.text).toContain(part);
    }
    expect(email.subject).toBe('Enquiry: Fixture Trek, 3 people, <script>alert("x")</script> & Co');
  });

  it('escapes every visitor value in the HTML', () => {
    expect(email.html).not.toContain('<script>');
    expect(email.html).not.toContain('<b>bold');
    expect(email.html).toContain('&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co');
    expect(email.html).toContain('&lt;b&gt;bold?&lt;/b&gt;');
    expect(email.html).toContain('<td>asha+&lt;x&gt;@example.com</td>');
    expect(escapeHtml(`'"<>&`)).toBe('&#39;&quot;&lt;&gt;&amp;');
  });

  it('is the same email on every attempt, as the idempotency key requires', () => {
    expect(composeEnquiryEmail({ ...enquiry, attempts: 3, lastError: 'x' })).toEqual(email);
  });
});
