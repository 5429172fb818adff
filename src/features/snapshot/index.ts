export { DOMAIN_CODECS, parseSnapshot, restoreSnapshot, SNAPSHOT_VERSION, takeSnapshot, type DoppelSnapshot } from './snapshot-document.ts'
