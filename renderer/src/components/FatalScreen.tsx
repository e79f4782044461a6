/** A whole-window message for when the UI cannot work at all (no token, server gone). */
export function FatalScreen({ title, message, onRetry }: { title: string; message: string; onRetry?: () => void }) {
  return (
    <div className="fatal" role="alert">
      <h1>{title}</h1>
      <p>{message}</p>
      {onRetry && (
        <button className="button primary" onClick={onRetry}>
          Try again
        </button>
      )}
    </div>
  );
}
