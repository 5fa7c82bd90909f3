// Each producer's scenarios: the fixture options (and the tool's own) per case.
import { CART } from './common.mjs';

const charge = { tool: 'charge_cart', args: CART };
const read = { tool: 'get_cart', args: { cart: 'c-1' } };
export const cases = {
  'ai-sdk': {
  'charge-timeout-keyless': { script: [charge], pay: 'hold', hold: 3000 },
  'charge-timeout-keyed': { script: [charge], pay: 'hold', hold: 3000, keyed: true },
  'charge-503-early-recall': { script: [charge], pay: '503', ra: '2' },
  'model-429-capped-90': { script: [charge], model: '429', modelra: '90' },
  'get-cart-timeout': { script: [read], cart: 'hold', carthold: 3000 },
  'clean': { script: [read, charge] },
  'model-429-honoured-1': { script: [read, charge], model: '429', modelra: '1' },
  'model-429-retry-after-ms': { script: [charge], model: '429', modelra: 'ms:1500' },
  'model-429-http-date': { script: [charge], model: '429', modelra: 'date:2' },
    'charge-timeout-keyed-dedupe': { script: [charge], pay: 'hold', hold: 3000, keyed: true, dedupe: '1' },
    'charge-timeout-keyless-no-inputs': { script: [charge], pay: 'hold', hold: 3000 },
    'stream-charge-timeout-keyless': { script: [charge], pay: 'hold', hold: 3000 },
    'charge-timeout-recall-changed-args': { script: [charge], pay: 'hold', hold: 3000, recallargs: { cart: 'c-1', amount: 1100 } },
    'two-carts-clean': { script: [charge, { tool: 'charge_cart', args: { cart: 'c-2', amount: 800 } }] },
    'charge-twice-after-success': { script: [charge, charge] },
    'model-503-backoff': { script: [charge], model: '503', modelra: 'none' },
    'model-429-exhausted': { script: [charge], model: '429', modeln: '3', modelra: '1' },
  },
  'azure-core-js': {
    'post-reset-keyless': { az: 'reset' },
    'post-reset-keyless-root': { az: 'reset' },
    'post-503-honoured': { az: '503', azra: '2' },
    'post-429-retry-after-ms': { az: '429', azra: 'ms:1500' },
    'post-clean': {},
    'post-timeout-keyless': { az: 'hold', azhold: '3000' },
  },
  'aws-sdk-js': {
    'putitem-throttled-twice': { ddb: 'throttle', ddbn: '2', ddbop: 'PutItem' },
    'updateitem-timeout': { ddb: 'hold', ddbn: '1', ddbop: 'UpdateItem', ddbhold: '3000' },
    'updateitem-timeout-warn-only': { ddb: 'hold', ddbn: '1', ddbop: 'UpdateItem', ddbhold: '3000' },
    'putitem-clean': {},
  },
  'aws-sdk-js-otel': {
    'putitem-throttled-twice': { ddb: 'throttle', ddbn: '2', ddbop: 'PutItem' },
    'updateitem-timeout': { ddb: 'hold', ddbn: '1', ddbop: 'UpdateItem', ddbhold: '3000' },
  },
  'mcp-js': {
    'tool-timeout-recall': { pay: 'hold', hold: '3000' },
    'clean': {},
  },
  'langgraph-js': {
    'tool-timeout-node-retry': { script: [charge], pay: 'hold', hold: '3000' },
    'tool-timeout-node-retry-root': { script: [charge], pay: 'hold', hold: '3000' },
    'tool-timeout-model-recall': { script: [charge], pay: 'hold', hold: '3000' },
    'model-429-langchain-retry': { script: [charge], model: '429', modelra: '2' },
    'tool-503-node-retry': { script: [charge], pay: '503', ra: '2' },
    'clean': { script: [read, charge] },
  },
  'openai-agents-js': {
    'tool-timeout-recall': { script: [charge], pay: 'hold', hold: '3000' },
    'model-429-honoured': { script: [charge], model: '429', modelra: '1' },
    'model-429-honoured-90': { script: [charge], model: '429', modelra: '90' },
    'clean': { script: [read, charge] },
  },
  'anthropic-js': {
    'messages-529-resent-root': { model: '529', modelra: '1' },
    'messages-429-resent-root': { model: '429', modelra: '1' },
    'messages-clean-root': {},
  },
  'ai-sdk-mcp': {
    'charge-timeout-recall': { script: [charge], pay: 'hold', hold: '3000' },
    'clean': { script: [charge] },
  },
};
