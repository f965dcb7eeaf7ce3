// The editors' context fields now live in the definitions data module; this file keeps the old import path working.
export { useContextFields, type ContextFieldInfo } from '../../data/definitions';
export { legalValuesByField } from '../../logic/constraints';
