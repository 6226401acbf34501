/** The manifest and layer media types a containerDisk pull understands (OCI image spec, Docker schema2). */
export const MediaType = {
  OciManifest: 'application/vnd.oci.image.manifest.v1+json',
  OciIndex: 'application/vnd.oci.image.index.v1+json',
  DockerManifest: 'application/vnd.docker.distribution.manifest.v2+json',
  DockerManifestList: 'application/vnd.docker.distribution.manifest.list.v2+json',
  OciLayer: 'application/vnd.oci.image.layer.v1.tar',
  OciLayerGzip: 'application/vnd.oci.image.layer.v1.tar+gzip',
  DockerLayerGzip: 'application/vnd.docker.image.rootfs.diff.tar.gzip',
  OciConfig: 'application/vnd.oci.image.config.v1+json',
  DockerConfig: 'application/vnd.docker.container.image.v1+json',
} as const;

/** The Accept header of a manifest request: every kind we can read. */
export const MANIFEST_ACCEPT = [MediaType.OciIndex, MediaType.OciManifest, MediaType.DockerManifestList, MediaType.DockerManifest].join(', ');
