// A worker agent on LangGraph.js, traced with OpenInference's LangChain
// instrumentation: a graph of a model node (ChatOpenAI with the tools bound)
// and a tool node, looping until the model answers. OpenInference writes a
// span per runnable (openinference.span.kind LLM, TOOL, CHAIN). The model is
// the OpenAI-compatible server at MODEL_BASE_URL.
import { LangChainInstrumentation } from "@arizeai/openinference-instrumentation-langchain";
import * as CallbackManagerModule from "@langchain/core/callbacks/manager";
import { tool } from "@langchain/core/tools";
import { END, MessagesAnnotation, START, StateGraph } from "@langchain/langgraph";
import { ToolNode, toolsCondition } from "@langchain/langgraph/prebuilt";
import { ChatOpenAI } from "@langchain/openai";
import { context } from "@opentelemetry/api";
import { startTracing } from "./tracing.mjs";
import { history, serve, tools as workerTools } from "./worker.mjs";

const { provider } = startTracing("langgraph-agent");
new LangChainInstrumentation().manuallyInstrument(CallbackManagerModule);

const tools = workerTools.map((t) => tool(async (a) => JSON.stringify(t.run(a)), { name: t.name, description: t.description, schema: t.schema }));
const model = new ChatOpenAI({ model: "scripted-model", apiKey: "none", configuration: { baseURL: process.env.MODEL_BASE_URL } }).bindTools(tools);
const graph = new StateGraph(MessagesAnnotation)
  .addNode("agent", async (state) => ({ messages: [await model.invoke(state.messages)] }))
  .addNode("tools", new ToolNode(tools))
  .addEdge(START, "agent")
  .addConditionalEdges("agent", toolsCondition, ["tools", END])
  .addEdge("tools", "agent")
  .compile();

await serve(async (q, parent) => {
  const state = await context.with(parent, () => graph.invoke({ messages: history(q) }));
  return state.messages.at(-1).content;
}, () => provider.forceFlush());
