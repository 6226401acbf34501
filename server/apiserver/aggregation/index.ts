export { findAPIService, isAPIServiceAvailable, apiServiceTarget, ENDPOINT_ANNOTATION } from './api-service-target';
export { proxyToAPIService, proxyUpgradeToAPIService, setProxyClientCertificate } from './proxy';
export { REMOTE_USER_HEADER, REMOTE_GROUP_HEADER } from './proxy-headers';
export { setServiceResolver } from '../admission/service-resolver';
