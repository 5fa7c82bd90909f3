// AWS SDK for JavaScript v3 DynamoDB scenarios against the fixture's DynamoDB-shaped endpoint, under an
// application span, with the SDK's default retry strategy and a 1 s request timeout.
//   node --experimental-loader=@opentelemetry/instrumentation/hook.mjs --import ./telemetry.mjs \
//     aws.mjs CASE http://127.0.0.1:PORT [FIXTURE_SCENARIO]
// With RECORD_AWS=1 (producer aws-sdk-js-otel) @opentelemetry/instrumentation-aws-sdk adds a span per command.
import { trace } from '@opentelemetry/api';
import { DynamoDBClient, PutItemCommand, UpdateItemCommand } from '@aws-sdk/client-dynamodb';
import { finish } from './common.mjs';

const [name, base, fixtureName] = process.argv.slice(2);
const scenario = fixtureName || `aws-sdk-js-${name}`;
const client = new DynamoDBClient({
  endpoint: `${base}/s/${scenario}/dynamodb`,
  region: 'us-east-1',
  credentials: { accessKeyId: 'AKIDRECORD', secretAccessKey: 'record-secret' },
  // Without throwOnRequestTimeout, @smithy/node-http-handler 4.x only logs a warning at requestTimeout.
  requestHandler: { requestTimeout: 1000, throwOnRequestTimeout: !name.endsWith('-warn-only') },
});
const order = { pk: { S: 'order#c-1' }, amount: { N: '1200' } };
const command = name.startsWith('updateitem')
  ? new UpdateItemCommand({
    TableName: 'orders', Key: { pk: order.pk },
    UpdateExpression: 'ADD captured :a', ExpressionAttributeValues: { ':a': order.amount },
  })
  : new PutItemCommand({ TableName: 'orders', Item: order });
const result = await trace.getTracer('record').startActiveSpan(`orders.${name.split('-')[0]}`, async (span) => {
  try {
    const out = await client.send(command);
    return { ok: true, attempts: out.$metadata.attempts, retryDelay: out.$metadata.totalRetryDelay };
  } catch (e) {
    return { error: String(e), attempts: e.$metadata && e.$metadata.attempts };
  } finally {
    span.end();
  }
});
await finish(result);
