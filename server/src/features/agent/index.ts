/**
 * The assistant (issue 30): a chat that plans with tools over the library, shows results as cards, asks
 * before it changes anything, and pins results to a board. The engine (engine.ts) drives a planner
 * (planner.ts): the deterministic one here needs no model; a model planner plugs in behind the same interface.
 */
export { AgentService } from './agent.service.ts';
export { agentRouter } from './agent.router.ts';
export { AgentEngine } from './engine.ts';
export { AgentStore } from './agent.store.ts';
export { LibraryStore } from './library.store.ts';
export { DeterministicPlanner } from './deterministic-planner.ts';
export { ModelPlanner } from './model-planner.ts';
export type { Planner, PlannerInput, PlanStep, StepResult } from './planner.ts';
export type { AgentLibrary } from './ports.ts';
