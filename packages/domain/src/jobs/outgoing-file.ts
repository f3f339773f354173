/** A file as a route sends it: its media type and its bytes, read a part at a time. */
export interface OutgoingFile {
  mediaType: string;
  /** The name a browser saves it under. */
  fileName: string;
  body: AsyncIterable<Buffer>;
}
