// @novnc/novnc 1.x exports its RFB client from the package root; @types/novnc__novnc describes it
// under its historical path. One name for both, typed.
declare module '@novnc/novnc' {
  export { default } from '@novnc/novnc/lib/rfb';
}
