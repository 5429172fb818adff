import type { AssumedRoleCredentials, CallerIdentity } from '../glossary.ts'
import { element, textElement } from '../query-xml.ts'

/** The `…Result` bodies of the STS operations (docs/reference/fake-cloud.md §4.2, docs/reference/fake-cloud.md §4.5). */
export const stsXml = {
  getCallerIdentity: (identity: CallerIdentity): string =>
    textElement('Arn', identity.arn) + textElement('UserId', identity.userId) + textElement('Account', identity.account),

  assumeRole: (credentials: AssumedRoleCredentials): string =>
    element('AssumedRoleUser', textElement('AssumedRoleId', credentials.assumedRoleId), textElement('Arn', credentials.assumedRoleArn)) +
    element(
      'Credentials',
      textElement('AccessKeyId', credentials.accessKeyId),
      textElement('SecretAccessKey', credentials.secretAccessKey),
      textElement('SessionToken', credentials.sessionToken),
      textElement('Expiration', credentials.expiration),
    ),
}
