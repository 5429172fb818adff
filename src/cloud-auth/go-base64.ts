/**
 * Go's `base64.StdEncoding.DecodeString`: standard alphabet, padding required, `\r` and `\n` skipped,
 * anything else refused. Returns undefined where Go returns an error.
 */
export function decodeStdBase64(value: string): Buffer | undefined {
  const text = value.replace(/[\r\n]/g, '')
  if (text.length % 4 !== 0) return undefined
  if (!/^[A-Za-z0-9+/]*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(text)) return undefined
  return Buffer.from(text, 'base64')
}
