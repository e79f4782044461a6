/**
 * One region of the page image, cropped and scaled to fit a frame: the table beside its grid, the formula beside its
 * rendering. The box is in the extraction's page pixels (`boxSpace`); the served image may have another resolution,
 * so the image is laid out in box-space units and scaled as a whole.
 */
import type { Box } from '../../../app/model/extraction.js';

interface PageCropProps {
  imageUrl: string;
  boxSpace: { width: number; height: number };
  box: Box;
  /** The largest size the crop may take, in CSS pixels. */
  maxWidth: number;
  maxHeight: number;
  label: string;
}

/** Page pixels of context kept around the box, so ruling lines and neighbouring text stay visible. */
const marginPx = 6;

export function PageCrop({ imageUrl, boxSpace, box, maxWidth, maxHeight, label }: PageCropProps) {
  const x1 = Math.max(0, box[0] - marginPx);
  const y1 = Math.max(0, box[1] - marginPx);
  const x2 = Math.min(boxSpace.width, box[2] + marginPx);
  const y2 = Math.min(boxSpace.height, box[3] + marginPx);
  const width = Math.max(1, x2 - x1);
  const height = Math.max(1, y2 - y1);
  const scale = Math.min(maxWidth / width, maxHeight / height, 2);
  return (
    <div
      className="page-crop"
      data-testid="page-crop"
      role="img"
      aria-label={label}
      style={{ width: Math.round(width * scale), height: Math.round(height * scale) }}
    >
      <img
        src={imageUrl}
        alt=""
        draggable={false}
        style={{ width: boxSpace.width * scale, height: boxSpace.height * scale, left: -x1 * scale, top: -y1 * scale }}
      />
    </div>
  );
}
