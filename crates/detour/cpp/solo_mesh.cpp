// The Recast demo's solo navmesh (Sample_SoloMesh::handleBuild with the
// demo defaults) turned into a Detour navmesh, and the demo's path query
// (NavMeshTesterTool: findNearestPoly for both ends, findPath,
// findStraightPath), behind a C interface for navscope-detour.
#include "Recast.h"
#include "DetourCommon.h"
#include "DetourNavMesh.h"
#include "DetourNavMeshBuilder.h"
#include "DetourNavMeshQuery.h"
#include <cmath>
#include <cstring>

namespace {

const int MAX_POLYS = 256;  // NavMeshTesterTool's MAX_POLYS
const int QUERY_NODES = 2048;  // Sample_SoloMesh's query pool
const unsigned short WALK = 0x01;  // SAMPLE_POLYFLAGS_WALK

struct Detour {
	dtNavMesh* mesh = 0;
	dtNavMeshQuery* query = 0;
	dtQueryFilter filter;
	float extents[3] = {2.0f, 4.0f, 2.0f};  // the demo's m_polyPickExt
	int polys = 0;
	dtPolyRef path[MAX_POLYS];
	float straight[MAX_POLYS * 3];
};

struct Stages {
	rcHeightfield* solid = 0;
	rcCompactHeightfield* chf = 0;
	rcContourSet* cset = 0;
	rcPolyMesh* pmesh = 0;
	rcPolyMeshDetail* dmesh = 0;
	~Stages() {
		rcFreeHeightField(solid);
		rcFreeCompactHeightfield(chf);
		rcFreeContourSet(cset);
		rcFreePolyMesh(pmesh);
		rcFreePolyMeshDetail(dmesh);
	}
};

}  // namespace

extern "C" {

// Builds the navmesh of the triangles (x, y, z per vertex, Y up, three
// indices per triangle); null when a stage fails.
void* navscope_detour_build(const float* verts, int nverts, const int* tris, int ntris)
{
	const float cellSize = 0.3f, cellHeight = 0.2f;
	const float agentHeight = 2.0f, agentRadius = 0.6f, agentMaxClimb = 0.9f, agentMaxSlope = 45.0f;
	const float regionMinSize = 8, regionMergeSize = 20;
	const float edgeMaxLen = 12.0f, edgeMaxError = 1.3f;
	const int vertsPerPoly = 6;
	const float detailSampleDist = 6.0f, detailSampleMaxError = 1.0f;

	rcConfig cfg;
	memset(&cfg, 0, sizeof(cfg));
	cfg.cs = cellSize;
	cfg.ch = cellHeight;
	cfg.walkableSlopeAngle = agentMaxSlope;
	cfg.walkableHeight = (int)ceilf(agentHeight / cfg.ch);
	cfg.walkableClimb = (int)floorf(agentMaxClimb / cfg.ch);
	cfg.walkableRadius = (int)ceilf(agentRadius / cfg.cs);
	cfg.maxEdgeLen = (int)(edgeMaxLen / cellSize);
	cfg.maxSimplificationError = edgeMaxError;
	cfg.minRegionArea = (int)rcSqr(regionMinSize);
	cfg.mergeRegionArea = (int)rcSqr(regionMergeSize);
	cfg.maxVertsPerPoly = vertsPerPoly;
	cfg.detailSampleDist = cellSize * detailSampleDist;
	cfg.detailSampleMaxError = cellHeight * detailSampleMaxError;
	rcCalcBounds(verts, nverts, cfg.bmin, cfg.bmax);
	rcCalcGridSize(cfg.bmin, cfg.bmax, cfg.cs, &cfg.width, &cfg.height);

	rcContext ctx(false);
	Stages s;
	s.solid = rcAllocHeightfield();
	if (!s.solid || !rcCreateHeightfield(&ctx, *s.solid, cfg.width, cfg.height, cfg.bmin, cfg.bmax, cfg.cs, cfg.ch))
		return 0;
	unsigned char* areas = new unsigned char[ntris];
	memset(areas, 0, ntris);
	rcMarkWalkableTriangles(&ctx, cfg.walkableSlopeAngle, verts, nverts, tris, ntris, areas);
	const bool rasterized = rcRasterizeTriangles(&ctx, verts, nverts, tris, areas, ntris, *s.solid, cfg.walkableClimb);
	delete[] areas;
	if (!rasterized)
		return 0;
	rcFilterLowHangingWalkableObstacles(&ctx, cfg.walkableClimb, *s.solid);
	rcFilterLedgeSpans(&ctx, cfg.walkableHeight, cfg.walkableClimb, *s.solid);
	rcFilterWalkableLowHeightSpans(&ctx, cfg.walkableHeight, *s.solid);
	s.chf = rcAllocCompactHeightfield();
	if (!s.chf || !rcBuildCompactHeightfield(&ctx, cfg.walkableHeight, cfg.walkableClimb, *s.solid, *s.chf))
		return 0;
	if (!rcErodeWalkableArea(&ctx, cfg.walkableRadius, *s.chf))
		return 0;
	if (!rcBuildDistanceField(&ctx, *s.chf) || !rcBuildRegions(&ctx, *s.chf, 0, cfg.minRegionArea, cfg.mergeRegionArea))
		return 0;
	s.cset = rcAllocContourSet();
	if (!s.cset || !rcBuildContours(&ctx, *s.chf, cfg.maxSimplificationError, cfg.maxEdgeLen, *s.cset))
		return 0;
	s.pmesh = rcAllocPolyMesh();
	if (!s.pmesh || !rcBuildPolyMesh(&ctx, *s.cset, cfg.maxVertsPerPoly, *s.pmesh))
		return 0;
	s.dmesh = rcAllocPolyMeshDetail();
	if (!s.dmesh || !rcBuildPolyMeshDetail(&ctx, *s.pmesh, *s.chf, cfg.detailSampleDist, cfg.detailSampleMaxError, *s.dmesh))
		return 0;

	// Every walkable polygon may be walked (the demo's ground area and
	// walk flag); the default filter passes it.
	rcPolyMesh& pm = *s.pmesh;
	for (int i = 0; i < pm.npolys; ++i)
		if (pm.areas[i] == RC_WALKABLE_AREA)
			pm.flags[i] = WALK;

	dtNavMeshCreateParams params;
	memset(&params, 0, sizeof(params));
	params.verts = pm.verts;
	params.vertCount = pm.nverts;
	params.polys = pm.polys;
	params.polyAreas = pm.areas;
	params.polyFlags = pm.flags;
	params.polyCount = pm.npolys;
	params.nvp = pm.nvp;
	params.detailMeshes = s.dmesh->meshes;
	params.detailVerts = s.dmesh->verts;
	params.detailVertsCount = s.dmesh->nverts;
	params.detailTris = s.dmesh->tris;
	params.detailTriCount = s.dmesh->ntris;
	params.walkableHeight = agentHeight;
	params.walkableRadius = agentRadius;
	params.walkableClimb = agentMaxClimb;
	rcVcopy(params.bmin, pm.bmin);
	rcVcopy(params.bmax, pm.bmax);
	params.cs = cfg.cs;
	params.ch = cfg.ch;
	params.buildBvTree = true;
	unsigned char* data = 0;
	int size = 0;
	if (!dtCreateNavMeshData(&params, &data, &size))
		return 0;

	Detour* d = new Detour;
	d->polys = pm.npolys;
	d->mesh = dtAllocNavMesh();
	if (!d->mesh || dtStatusFailed(d->mesh->init(data, size, DT_TILE_FREE_DATA))) {
		if (!d->mesh)
			dtFree(data);
		dtFreeNavMesh(d->mesh);
		delete d;
		return 0;
	}
	d->query = dtAllocNavMeshQuery();
	if (!d->query || dtStatusFailed(d->query->init(d->mesh, QUERY_NODES))) {
		dtFreeNavMeshQuery(d->query);
		dtFreeNavMesh(d->mesh);
		delete d;
		return 0;
	}
	return d;
}

int navscope_detour_polygons(const void* handle)
{
	return static_cast<const Detour*>(handle)->polys;
}

// The demo's straight path from `from` to `to`: its length in metres, or
// a negative number when an end is off the mesh or the goal's polygon is
// not reached (Detour then returns a partial path).
float navscope_detour_path(void* handle, const float* from, const float* to)
{
	Detour& d = *static_cast<Detour*>(handle);
	dtPolyRef startRef = 0, endRef = 0;
	float spos[3], epos[3];
	d.query->findNearestPoly(from, d.extents, &d.filter, &startRef, spos);
	d.query->findNearestPoly(to, d.extents, &d.filter, &endRef, epos);
	if (!startRef || !endRef)
		return -1.0f;
	int npath = 0;
	d.query->findPath(startRef, endRef, from, to, &d.filter, d.path, &npath, MAX_POLYS);
	if (npath == 0 || d.path[npath - 1] != endRef)
		return -1.0f;
	int nstraight = 0;
	d.query->findStraightPath(from, to, d.path, npath, d.straight, 0, 0, &nstraight, MAX_POLYS, 0);
	float length = 0.0f;
	for (int i = 1; i < nstraight; ++i) {
		const float* a = &d.straight[(i - 1) * 3];
		const float* b = &d.straight[i * 3];
		length += dtVdist(a, b);
	}
	return nstraight > 0 ? length : -1.0f;
}

void navscope_detour_free(void* handle)
{
	Detour* d = static_cast<Detour*>(handle);
	dtFreeNavMeshQuery(d->query);
	dtFreeNavMesh(d->mesh);
	delete d;
}

}  // extern "C"
