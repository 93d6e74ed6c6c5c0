// Data files that local plugins write with `createData` (Docusaurus serves them under `@generated/<plugin>/default/`).
declare module '@generated/api-artifacts/default/contract.json' {
  const contract: import('../../lib/contract/data').ContractData;
  export default contract;
}

declare module '@generated/sdk-reference/default/sdk-methods.json' {
  const methods: readonly import('../../plugins/sdk-reference').SdkMethodRow[];
  export default methods;
}
