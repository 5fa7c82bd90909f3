// LangGraph.js scenarios traced by OpenInference (@arizeai/openinference-instrumentation-langchain)
// and the HTTP instrumentations: a StateGraph of an agent node (ChatOpenAI against the fixture's
// scripted model, tools bound) and a ToolNode of charge_cart and get_cart, the tools node under a
// RetryPolicy of 2 attempts. With handleToolErrors false a failed tool fails the node, so the
// RetryPolicy re-runs it (the same tool call); with it true the model sees the error and re-calls.
//   node --experimental-loader=@opentelemetry/instrumentation/hook.mjs --import ./telemetry.mjs \
//     langgraph.mjs CASE http://127.0.0.1:PORT
import { trace } from '@opentelemetry/api';
import * as CallbackManagerModule from '@langchain/core/callbacks/manager';
import { LangChainInstrumentation } from '@arizeai/openinference-instrumentation-langchain';
import { HumanMessage } from '@langchain/core/messages';
import { tool } from '@langchain/core/tools';
import { ChatOpenAI } from '@langchain/openai';
import { END, MessagesAnnotation, START, StateGraph } from '@langchain/langgraph';
import { ToolNode } from '@langchain/langgraph/prebuilt';
import { z } from 'zod';
import { finish, tools } from './common.mjs';

new LangChainInstrumentation().manuallyInstrument(CallbackManagerModule);

const [name, base] = process.argv.slice(2);
const scenario = `langgraph-js-${name}`;
const http = tools(base, scenario);
const chargeCart = tool(async (args) => JSON.stringify(await http.chargeCart(args)), {
  name: 'charge_cart', description: 'Charge a cart (a payment capture)', schema: z.object({ cart: z.string(), amount: z.number() }),
});
const getCart = tool(async (args) => JSON.stringify(await http.getCart(args)), {
  name: 'get_cart', description: 'Read a cart', schema: z.object({ cart: z.string() }),
});
const model = new ChatOpenAI({
  model: 'scripted-model', apiKey: 'test-key', configuration: { baseURL: `${base}/s/${scenario}/v1` },
}).bindTools([chargeCart, getCart]);
const graph = new StateGraph(MessagesAnnotation)
  .addNode('agent', async (state) => ({ messages: [await model.invoke(state.messages)] }))
  .addNode('tools', new ToolNode([chargeCart, getCart], { handleToolErrors: name.includes('model-recall') }),
    { retryPolicy: { maxAttempts: 2 } })
  .addEdge(START, 'agent')
  .addConditionalEdges('agent', (state) => (state.messages.at(-1).tool_calls?.length ? 'tools' : END))
  .addEdge('tools', 'agent')
  .compile();
const run = () => graph.invoke({ messages: [new HumanMessage('Charge cart c-1 for 1200.')] })
  .then((s) => ({ messages: s.messages.length, last: s.messages.at(-1).content }), (e) => ({ error: String(e) }));
// OpenInference's spans do not become the active context, so the HTTP sends are children of the
// application's span (siblings of the LangGraph span), or roots of their own traces without one (-root).
const result = name.endsWith('-root') ? await run() : await trace.getTracer('record').startActiveSpan('charge-agent.run', async (span) => {
  try {
    return await run();
  } finally {
    span.end();
  }
});
await finish(result);
