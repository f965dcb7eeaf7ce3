import { GraphQLError, Kind, type ASTVisitor, type FragmentDefinitionNode, type SelectionSetNode, type ValidationContext } from 'graphql';

export const MAX_DEPTH = 10;
export const MAX_FIELDS = 2000;

/**
 * Validation rule: refuses operations nested deeper than `maxDepth` or selecting more than `maxFields`
 * fields in all (fragments expanded), before anything executes.
 */
export function operationLimits(maxDepth = MAX_DEPTH, maxFields = MAX_FIELDS) {
  return (context: ValidationContext): ASTVisitor => {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const def of context.getDocument().definitions) {
      if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
    }
    return {
      OperationDefinition(node) {
        let fields = 0;
        const walk = (set: SelectionSetNode | undefined, depth: number, seen: Set<string>): number => {
          if (!set) return depth;
          let deepest = depth;
          for (const sel of set.selections) {
            if (sel.kind === Kind.FIELD) {
              if (sel.name.value.startsWith('__')) continue;
              fields++;
              deepest = Math.max(deepest, walk(sel.selectionSet, depth + 1, seen));
            } else if (sel.kind === Kind.INLINE_FRAGMENT) {
              deepest = Math.max(deepest, walk(sel.selectionSet, depth, seen));
            } else {
              const name = sel.name.value;
              if (seen.has(name)) continue;
              const frag = fragments.get(name);
              deepest = Math.max(deepest, walk(frag?.selectionSet, depth, new Set([...seen, name])));
            }
            if (fields > maxFields) return deepest;
          }
          return deepest;
        };
        const depth = walk(node.selectionSet, 0, new Set());
        if (depth > maxDepth) {
          context.reportError(new GraphQLError(`The operation is nested ${depth} levels deep; the limit is ${maxDepth}.`, { nodes: [node], extensions: { name: 'ValidationError', code: 400 } }));
        } else if (fields > maxFields) {
          context.reportError(new GraphQLError(`The operation selects more than ${maxFields} fields; the limit is ${maxFields}.`, { nodes: [node], extensions: { name: 'ValidationError', code: 400 } }));
        }
      },
    };
  };
}
