/** The playground's choices (environments, projects, context fields). */
export const playgroundKeys = {
  all: ['playground'] as const,
  options: () => ['playground', 'options'] as const,
};
