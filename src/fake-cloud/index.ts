export { fakeCloud } from './fake-cloud-service.ts'
export { cloudFaultResponse } from './query-xml.ts'
