/** The local image store's images (for the create form). Signed-in users only. */
import { listImages } from '@/server/images/image-store';
import { dataPaths, defaultDataDir } from '@/server/data-dir';
import { sessionTokenOfRequest, statusResponse } from '@/server/console/route-session';

export const dynamic = 'force-dynamic';

export async function GET(req: Request): Promise<Response> {
  if (!sessionTokenOfRequest(req)) return statusResponse(401, 'Sign in first.', 'Unauthorized');
  let images: { name: string; sizeBytes?: number; importedAt?: string }[] = [];
  try {
    images = listImages(dataPaths(defaultDataDir()).images).map((i) => ({ name: i.name, sizeBytes: i.sizeBytes, importedAt: i.importedAt }));
  } catch { /* no store (cluster mode): the form takes any image reference */ }
  return Response.json({ images });
}
