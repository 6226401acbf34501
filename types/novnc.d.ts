declare module '@novnc/novnc' {
  const RFB: any;
  export default RFB;
}
