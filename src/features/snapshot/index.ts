export { domainCodecs, parseSnapshot, restoreSnapshot, restoreSnapshotInSlices, SNAPSHOT_VERSION, takeSnapshot, type DoppelSnapshot } from './snapshot-document.ts'
export { DataDirError, openDataDir, type DataDir, type DataDirFs } from './data-dir.ts'
