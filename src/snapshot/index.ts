export { DOMAIN_CODECS, parseSnapshot, SNAPSHOT_VERSION, takeSnapshot, type DoppelSnapshot } from './snapshot-document.ts'
