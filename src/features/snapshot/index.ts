export { DOMAIN_CODECS, parseSnapshot, restoreSnapshot, restoreSnapshotInSlices, SNAPSHOT_VERSION, takeSnapshot, type DoppelSnapshot } from './snapshot-document.ts'
