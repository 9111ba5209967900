import { audio, embeddedBlob, embeddedText, image, resourceLink, text } from './content-blocks.js';
import { isCallToolResultLike, isContentBlock } from './content-guards.js';

export { audio, embeddedBlob, embeddedText, image, resourceLink, text } from './content-blocks.js';
export type { BinaryData, ResourceLinkInput } from './content-blocks.js';
export { isCallToolResultLike, isContentBlock } from './content-guards.js';
export type { AnnotationsInput, ContentAudience } from './annotations.js';

/**
 * The content helpers grouped, for call sites that read better qualified: `Content.text('hi')`.
 * @publicApi
 */
export const Content = Object.freeze({
  text,
  image,
  audio,
  resourceLink,
  embeddedText,
  embeddedBlob,
  isContentBlock,
  isCallToolResultLike,
});
