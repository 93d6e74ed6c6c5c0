// Data files that local plugins write with `createData` (Docusaurus serves them under `@generated/<plugin>/default/`).
declare module '@generated/api-reference/default/contract.json' {
  const contract: import('../../lib/contract/data').ContractData;
  export default contract;
}

declare module '@generated/api-reference/default/sdk-methods.json' {
  const methods: readonly import('../../lib/sdk-surface').SdkMethodRow[];
  export default methods;
}

declare module '@generated/api-reference/default/sdk-coverage.json' {
  const coverage: import('../../lib/sdk-surface').SdkCoverage;
  export default coverage;
}

declare module '@generated/api-reference/default/webhook-events.json' {
  const events: import('../../lib/contract/webhooks').WebhookEventBlocks;
  export default events;
}

declare module '@generated/api-reference/default/postman-scripts.json' {
  const scripts: import('../../lib/contract/data').PostmanScriptBlocks;
  export default scripts;
}
