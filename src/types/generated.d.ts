// Data files that local plugins write with `createData` (Docusaurus serves them under `@generated/<plugin>/default/`).
declare module '@generated/api-artifacts/default/contract.json' {
  const contract: import('../../plugins/api-artifacts/contract-data').ContractData;
  export default contract;
}
