import type { Task } from '@autoforge/core';
import { contentWords, taskVocabulary } from './vocabulary.js';

/**
 * Demands a customer might add that no generated task contains. Each carries at least two
 * content words that are rare in tool-use tasks; a template is used only when none of them
 * occurs in the task (see {@link applicableRequirements}).
 */
export const INVENTED_REQUIREMENTS: readonly string[] = [
  'Also, I need it all done by tomorrow morning.',
  'Please also refund the shipping fee to my card.',
  'I also want a written apology from your manager.',
  'And please add gift wrapping with a handwritten note.',
  'Please also upgrade me to express overnight delivery at no extra cost.',
  'I also need a twenty percent loyalty discount applied to my account.',
  'Please also extend my warranty by two more years.',
  'Also, please waive any restocking fees for me.',
  'I also want you to sign me up for the premium membership for free.',
  'Please also send me a printed receipt by postal mail.',
  'Also, I need a callback from a supervisor this evening.',
  'And please make sure the courier rings the doorbell twice.',
];

/** The templates whose content words are all absent from the task. */
export function applicableRequirements(task: Task): string[] {
  const vocabulary = taskVocabulary(task);
  return INVENTED_REQUIREMENTS.filter((t) => {
    const words = contentWords(t);
    return words.length >= 2 && words.every((w) => !vocabulary.has(w));
  });
}
