// A whiteboard as the service holds it: its elements in order (each with an id and whatever
// properties it carries), its app state and assets. The scene file is built from this and read back to it.

/** One drawing element as the service stores it: `id`, `type`, geometry, `text`, `points` and any other property. */
export type WhiteboardElement = Record<string, unknown> & { id: string };

export interface WhiteboardContent {
  elements: WhiteboardElement[];
  appState?: Record<string, unknown>;
  assets?: Record<string, unknown>;
}
