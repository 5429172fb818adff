// The cryptography a login cannot avoid, timed bare with node:crypto on this machine: the floor that
// the server figures compare each login against (plus the bare HTTP server's cost of a request).
import { createHash, createHmac, createPrivateKey, createSecretKey, sign, verify, X509Certificate } from 'node:crypto'
import { readFileSync } from 'node:fs'
import { timeSync } from './lib.ts'

const DOCUMENT = Buffer.from(
  '{\n  "accountId" : "123456789012",\n  "architecture" : "x86_64",\n  "availabilityZone" : "us-east-1a",\n  "imageId" : "ami-0bbbb000000000001",\n  "instanceId" : "i-0a1b2c3d4e5f60718",\n  "instanceType" : "t3.micro",\n  "pendingTime" : "2024-03-05T09:41:27Z",\n  "privateIp" : "10.0.12.34",\n  "region" : "us-east-1",\n  "version" : "2017-09-30"\n}',
)
// A SigV4 canonical request of the size a GetCallerIdentity login sends.
const CANONICAL = `POST\n/\n\ncontent-length:43\ncontent-type:application/x-www-form-urlencoded; charset=utf-8\nhost:sts.amazonaws.com\nx-amz-date:20261124T074000Z\nx-service-cloud-iam-server-id:vault.example.com\n\ncontent-length;content-type;host;x-amz-date;x-service-cloud-iam-server-id\n${'e'.repeat(64)}`
const PAYLOAD = 'Action=GetCallerIdentity&Version=2011-06-15'

export interface CryptoFloor {
  micros: number
  what: string
}

export async function cryptoFloors(): Promise<Record<string, CryptoFloor>> {
  const key = createPrivateKey(readFileSync(new URL('../certs/rsa2048.key', import.meta.url)))
  const cert = new X509Certificate(readFileSync(new URL('../certs/rsa2048.pem', import.meta.url)))
  const signedAttributes = Buffer.alloc(110, 1)
  const signature = sign('sha256', signedAttributes, key)
  const signingKey = createSecretKey(createHash('sha256').update('k').digest())
  const opts = { warmup: 100, iterations: 1000, batch: 10 }
  const ec2 = timeSync(() => {
    createHash('sha256').update(DOCUMENT).digest()
    verify('sha256', signedAttributes, cert.publicKey, signature)
  }, opts)
  const iam = timeSync(() => {
    createHash('sha256').update(PAYLOAD).digest('hex')
    const hashed = createHash('sha256').update(CANONICAL).digest('hex')
    createHmac('sha256', signingKey).update(`AWS4-HMAC-SHA256\n20261124T074000Z\n20261124/us-east-1/sts/aws4_request\n${hashed}`).digest('hex')
  }, opts)
  return {
    'ec2 login': { micros: ec2, what: 'SHA-256 of the document, one RSA-2048 verify' },
    'iam login': { micros: iam, what: 'two SHA-256, one HMAC-SHA256 with the cached signing key' },
  }
}
