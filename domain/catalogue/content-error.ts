/**
 * A mistake in the content, naming every file and field at fault: thrown by the reader of the
 * editors' files (content-files.ts), and recognised by whatever answers with it (the live
 * functions answer 503) without carrying the reader.
 */
export class ContentError extends Error {
  override name = 'ContentError';
}
