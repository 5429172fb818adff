/**
 * Go's `base64.StdEncoding.DecodeString`: standard alphabet, padding required, `\r` and `\n` skipped,
 * anything else refused. Returns undefined where Go returns an error.
 */
export function decodeStdBase64(value: string): Buffer | undefined {
  const text = value.includes('\n') || value.includes('\r') ? value.replace(/[\r\n]/g, '') : value
  if (text.length % 4 !== 0) return undefined
  const bytes = Buffer.from(text, 'base64')
  // Text that encoding the bytes gives back is well-formed: the alphabet check below (a scan of a few KiB
  // for a pkcs7 document) is needed only for the rest, e.g. non-zero padding bits, which Go accepts.
  if (bytes.toString('base64') === text) return bytes
  if (!/^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) return undefined
  return bytes
}
