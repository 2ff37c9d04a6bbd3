// What a page realm of the unit tests reads responses with: this realm's Response, Headers and
// streams, as a page holds the browser's.

export const STREAMS = { Request, Headers, Response, ReadableStream, ReadableStreamDefaultReader, ReadableByteStreamController, ReadableStreamBYOBRequest, TextDecoder }
