import { missing } from '@crm/domain';
import { generateRecord } from '../data.ts';

/**
 * Notes as a CRM's users write them on a record: 1 to 2 KB of sentences about calls,
 * meetings, invoices and plans, naming people, companies, cities and products, so that a
 * TEXT field holds many of the words people also search for in titles and emails.
 */

const OPENERS = [
  'Spoke with',
  'Called',
  'Met',
  'Emailed',
  'Followed up with',
  'Left a voicemail for',
  'Had lunch with',
  'Demoed the product to',
  'Sent the proposal to',
  'Reviewed the contract with',
];
const TOPICS = [
  'the renewal',
  'pricing for next year',
  'the onboarding plan',
  'a pilot in the spring',
  'the integration with their ERP',
  'support tickets from last quarter',
  'the security questionnaire',
  'a discount for three seats',
  'moving the kickoff',
  'the data migration',
  'training for the new team',
  'an upgrade to the enterprise plan',
];
const PRODUCTS = ['Starter', 'Team', 'Business', 'Enterprise', 'Analytics add-on', 'API access'];
const MONTHS = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
const CITIES = ['Berlin', 'Lisbon', 'Austin', 'Toronto', 'Osaka', 'Nairobi', 'Kraków', 'Melbourne'];
const CLOSERS = [
  'They will get back to us after their board meeting.',
  'Budget is approved, waiting on legal.',
  'Asked for references from customers in the same industry.',
  'Not a priority for them before the end of the quarter.',
  'They compared us with two other vendors and liked the reporting.',
  'Needs a quote in euros with VAT.',
  'Wants the invoice sent to the finance team directly.',
  'Open question about single sign-on and audit logs.',
];

function pick<T>(random: () => number, items: readonly T[]): T {
  return items[Math.floor(random() * items.length)] ?? missing('a note word');
}

function sentence(random: () => number): string {
  const person = generateRecord(random);
  const company = typeof person.data.company === 'string' ? person.data.company : 'their team';
  switch (Math.floor(random() * 5)) {
    case 0:
      return `${pick(random, OPENERS)} ${person.title} at ${company} about ${pick(random, TOPICS)}.`;
    case 1:
      return `${pick(random, OPENERS)} ${person.title} in ${pick(random, CITIES)}; they want ${pick(random, PRODUCTS)} by ${pick(random, MONTHS)}.`;
    case 2:
      return `Invoice ${1000 + Math.floor(random() * 9000)} for ${pick(random, PRODUCTS)} is due in ${pick(random, MONTHS)}, ${company} pays by wire.`;
    case 3:
      return `${pick(random, CLOSERS)} Next step: ${pick(random, TOPICS)} with ${person.title}.`;
    default:
      return `${company} uses ${pick(random, PRODUCTS)} for ${1 + Math.floor(random() * 40)} people, ${pick(random, CLOSERS).toLowerCase()}`;
  }
}

/** Between `min` and `max` bytes of notes (whole sentences, the last one may be cut). */
export function notesText(random: () => number, min = 1024, max = 2048): string {
  const target = min + Math.floor(random() * (max - min));
  let text = '';
  while (Buffer.byteLength(text) < target) text += `${text ? ' ' : ''}${sentence(random)}`;
  while (Buffer.byteLength(text) > max) text = text.slice(0, -1);
  return text;
}
