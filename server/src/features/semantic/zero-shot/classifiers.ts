/**
 * The seeded zero-shot classifiers: a tag, a prompt ensemble describing it, and the margin threshold (reference,
 * "Zero-shot tags"). Each ensemble says the same thing several ways, so the prototype (the normalised mean of the
 * prompts' text embeddings) sits on what the phrasings share, not on one wording's quirks. The prompts are
 * written for CLIP ViT-B/32 (they mean nothing to the test stand-in, which knows only colours).
 */

export interface ClassifierDefinition {
  /** The tag the classifier gives (tags.tag_name; source `zeroshot`). */
  tag: string;
  positive: readonly string[];
  /** What it must not be mistaken for; none: the background prompts. */
  negative?: readonly string[];
  /** Margin cos(img, positive) − cos(img, negative) at and above which the tag is given. */
  threshold: number;
}

/** The reference's background prototype, for classifiers without negatives. */
export const BACKGROUND_PROMPTS: readonly string[] = ['a photo', 'an image', 'a picture', 'a random photograph'];

/** The threshold the seeded classifiers use (reference). */
export const SEEDED_THRESHOLD = 0.03;

export const SEEDED_CLASSIFIERS: readonly ClassifierDefinition[] = [
  {
    tag: 'document',
    positive: [
      'a photo of a document',
      'a scanned document',
      'a page of printed text',
      'a photo of a paper form',
      'a letter printed on paper',
      'a photo of official paperwork',
      'a page from a book or a report',
    ],
    threshold: SEEDED_THRESHOLD,
  },
  {
    tag: 'receipt',
    positive: [
      'a photo of a receipt',
      'a shop receipt with prices',
      'a crumpled paper receipt',
      'a till receipt from a supermarket',
      'a restaurant bill',
      'a printed invoice with a total amount',
      'a thermal paper receipt',
    ],
    threshold: SEEDED_THRESHOLD,
  },
  {
    tag: 'screenshot',
    positive: [
      'a screenshot',
      'a screenshot of a phone screen',
      'a screenshot of a computer screen',
      'a screenshot of an app',
      'a screenshot of a website',
      'a screen capture of a chat conversation',
      'a screenshot of a user interface with buttons and menus',
    ],
    threshold: SEEDED_THRESHOLD,
  },
  {
    tag: 'illustration',
    positive: ['an illustration', 'a drawing', 'a cartoon', 'digital art', 'a painting', 'a pencil sketch', 'clip art', 'an anime drawing'],
    threshold: SEEDED_THRESHOLD,
  },
];
