export type {
  DropStep,
  ErrorStep,
  HangStep,
  MalformedStep,
  RecordedRequest,
  ReplyStep,
  ScriptedChatServer,
  ScriptedChatServerOptions,
  ScriptedToolCall,
  ScriptStep,
} from './scripted-chat-server.js';
export { createScriptedChatServer } from './scripted-chat-server.js';
