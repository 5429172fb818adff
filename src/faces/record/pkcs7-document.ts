/**
 * The identity document inside a recorded `pkcs7` login value, read without verifying it: enough to
 * create a fake-cloud instance with the same image, account and region, whose document then logs in.
 */
import { decodeStdBase64 } from '../../core/go/go-base64.ts'
import { parseIdentityDocument, type IdentityDocument, parsePkcs7 } from '../../services/cloud-auth/index.ts'

/** The document, or undefined when the value is not a readable PKCS#7 with one. */
export function documentInPkcs7(value: string): IdentityDocument | undefined {
  const bytes = decodeStdBase64(value.replace(/\s/g, ''))
  if (!bytes) return undefined
  try {
    const document = parseIdentityDocument(parsePkcs7(bytes).content)
    return document.instanceId && document.imageId ? document : undefined
  } catch {
    return undefined
  }
}
